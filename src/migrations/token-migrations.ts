import { Token1763800001000 } from './1763800001000-token.js';
import { IntegrationTokenVersion1763800003000 } from './1763800003000-integration-token-version.js';

/** Migrations of the TokenModule, in order. */
export const tokenMigrations: Function[] = [Token1763800001000, IntegrationTokenVersion1763800003000];
