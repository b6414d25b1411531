import { Article } from '../catalog/article.entity.js';
import { Product } from '../catalog/product.entity.js';
import { FileRecord } from '../files/file-record.entity.js';
import { tokenEntities } from '../token/token.entities.js';
import { webhookEntities } from '../webhooks/webhook.entities.js';

/**
 * Every entity of the service. An entity with `@FileField()` properties listed here is attachable:
 * upload, resolution and cleanup work for it with no other code (its table still needs a migration).
 */
export const entities = [FileRecord, Product, Article, ...tokenEntities, ...webhookEntities];
