/** Entities of the WebhooksModule (listed in src/database/entities.ts). */
export const webhookEntities: Function[] = [];
