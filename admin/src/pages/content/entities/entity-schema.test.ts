import { describe, expect, it } from 'vitest';
import type { AttachmentTypeInfo } from '../../../content-types';
import { API_DOCUMENT } from './api-document.fixture';
import { entitySchemaOf, type OpenApiDocument } from './entity-schema';

const typeOf = (attachment_type: string, collection_path: string | null, fields: string[]): AttachmentTypeInfo => ({
  attachment_type,
  collection_path,
  fields: fields.map((name) => ({
    name,
    multi: false,
    accept: ['*/*'],
    refused: [],
    max_size: 1,
    max_count: 1,
    max_files_per_request: 1,
    max_pixels: null,
    variants: [],
  })),
});

describe('entitySchemaOf', () => {
  it('reads the committed document: titles, the rules of each body, file fields without their rule sentence', () => {
    const schema = entitySchemaOf(API_DOCUMENT, typeOf('article', '/articles', ['thumbnail', 'attachments']));
    expect(schema.labels.thumbnail).toEqual({
      title: 'Thumbnail',
      description: 'The small picture shown next to the title.',
    });
    expect(schema.labels.attachments.title).toBe('Attachments');
    expect(schema.create).toEqual([
      {
        name: 'title',
        title: 'Title',
        description: 'The headline of the article',
        kind: 'text',
        required: true,
        nullable: false,
        maxLength: 300,
      },
    ]);
    // PATCH may leave the title out, but a person may not empty it.
    expect(schema.update.map((field) => [field.name, field.required])).toEqual([['title', true]]);
  });

  it('builds the form of a type it has never seen from its routes, and names untitled properties in words', () => {
    const body = {
      type: 'object',
      required: ['sku'],
      properties: {
        sku: { type: 'string', maxLength: 40, title: 'Stock keeping unit' },
        unitPrice: { type: 'integer' },
        in_stock: { type: 'boolean' },
        tags: { type: 'array' },
      },
    };
    const document: OpenApiDocument = {
      paths: {
        '/api/gift-cards': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewCard' } } } },
          },
        },
        '/api/gift-cards/{id}': {
          get: {
            responses: {
              '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Card' } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          NewCard: body,
          Card: { type: 'object', properties: { artwork: { description: 'File field (null when empty).' } } },
        },
      },
    };
    const schema = entitySchemaOf(document, typeOf('gift_card', '/api/gift-cards', ['artwork']));
    expect(schema.create.map((field) => [field.name, field.title, field.kind, field.required])).toEqual([
      ['sku', 'Stock keeping unit', 'text', true],
      ['unitPrice', 'Unit price', 'number', false],
      ['in_stock', 'In stock', 'boolean', false],
    ]);
    expect(schema.update).toEqual([]);
    expect(schema.labels.artwork).toEqual({ title: 'Artwork', description: undefined });
  });
});
