/** Migrations of the WebhooksModule, in order. */
export const webhookMigrations: Function[] = [];
