import { Webhooks1763800002000 } from './1763800002000-webhooks.js';

/** Migrations of the WebhooksModule, in order. */
export const webhookMigrations: Function[] = [Webhooks1763800002000];
