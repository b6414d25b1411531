import { ValidationFailedError } from '@file-fields/nest';
import { WebhookEventCatalog, type WebhookEventDefinition } from './webhook-event-catalog.js';

describe('WebhookEventCatalog', () => {
  const kind = (name: string, more: Partial<WebhookEventDefinition> = {}): WebhookEventDefinition => ({
    kind: name,
    description: `${name} happened`,
    dataSchema: { type: 'object' },
    ...more,
  });
  const catalog = () => {
    const kinds = new WebhookEventCatalog();
    const attachmentTypeOf = (data: Record<string, unknown>) => data.type as string | undefined;
    kinds.register([kind('file.deleted', { attachmentTypeOf }), kind('file.created', { attachmentTypeOf })]);
    kinds.register([kind('webhook.ping', { subscribable: false })]);
    return kinds;
  };
  const refusal = (act: () => void) => {
    try {
      act();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailedError);
      return (error as ValidationFailedError).violations;
    }
    throw new Error('not refused');
  };

  it('knows every registered kind, subscribable or not', () => {
    expect(catalog().has('file.created')).toBe(true);
    expect(catalog().has('webhook.ping')).toBe(true);
    expect(catalog().has('file.exploded')).toBe(false);
  });

  it('lists the kinds by name, with their descriptions and schemas', () => {
    expect(catalog().all()).toEqual([
      expect.objectContaining({ kind: 'file.created', description: 'file.created happened' }),
      expect.objectContaining({ kind: 'file.deleted', dataSchema: { type: 'object' } }),
      expect.objectContaining({ kind: 'webhook.ping', subscribable: false }),
    ]);
  });

  it('offers the subscribable kinds and * for subscriptions', () => {
    expect(catalog().subscribableKinds()).toEqual(['file.created', 'file.deleted', '*']);
  });

  it('accepts registered kinds and *, refusing anything else as a validation failure of the field', () => {
    expect(() => catalog().assertSubscribable(['file.deleted', '*'])).not.toThrow();
    expect(refusal(() => catalog().assertSubscribable(['file.created', 'webhook.ping']))).toEqual([
      {
        field: 'events',
        messages: ['each value in events must be one of the following values: file.created, file.deleted, *'],
      },
    ]);
  });

  it("tells an event's attachment type by its kind's rule, and none for kinds without one", () => {
    expect(catalog().attachmentTypeOf('file.created', { type: 'product' })).toBe('product');
    expect(catalog().attachmentTypeOf('webhook.ping', { type: 'product' })).toBeUndefined();
    expect(catalog().attachmentTypeOf('file.exploded', { type: 'product' })).toBeUndefined();
  });

  it('accepts the attachment types its sources know, any well-formed one without a source', () => {
    const kinds = catalog();
    expect(() => kinds.assertAttachmentTypes(['brochure'])).not.toThrow();
    kinds.registerAttachmentTypes(() => ['product', 'article']);
    expect(() => kinds.assertAttachmentTypes(['article', 'product'])).not.toThrow();
    expect(refusal(() => kinds.assertAttachmentTypes(['product', 'brochure']))).toEqual([
      {
        field: 'filter.attachment_types',
        messages: ['each value in filter.attachment_types must be one of the following values: article, product'],
      },
    ]);
  });
});
