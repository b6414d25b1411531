import { Token1763800001000 } from './1763800001000-token.js';

/** Migrations of the TokenModule, in order. */
export const tokenMigrations: Function[] = [Token1763800001000];
