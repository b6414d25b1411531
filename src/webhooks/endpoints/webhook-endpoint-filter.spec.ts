import { ATTACHMENT_TYPE_NAME, receivesEvent } from './webhook-endpoint-filter.js';

describe('receivesEvent', () => {
  const endpoint = (events: string[], attachmentTypes?: string[]) => ({
    events,
    filter: attachmentTypes ? { attachment_types: attachmentTypes } : null,
  });

  it('needs a subscription to the kind, or to *', () => {
    expect(receivesEvent(endpoint(['file.created']), 'file.created', undefined)).toBe(true);
    expect(receivesEvent(endpoint(['*']), 'file.deleted', 'product')).toBe(true);
    expect(receivesEvent(endpoint(['file.created']), 'file.deleted', 'product')).toBe(false);
  });

  it('lets through only the attachment types of the filter, and every event about none', () => {
    const products = endpoint(['*'], ['product']);
    expect(receivesEvent(products, 'file.created', 'product')).toBe(true);
    expect(receivesEvent(products, 'file.created', 'article')).toBe(false);
    expect(receivesEvent(products, 'webhook.endpoint.disabled', undefined)).toBe(true);
    expect(receivesEvent(endpoint(['file.deleted'], ['product']), 'file.created', 'product')).toBe(false);
  });

  it('names attachment types as @AttachmentType() does', () => {
    expect(['product', 'sales-order', 'a_1'].every((name) => ATTACHMENT_TYPE_NAME.test(name))).toBe(true);
    expect(['Product', '1st', '', 'a b', 'x'.repeat(65)].some((name) => ATTACHMENT_TYPE_NAME.test(name))).toBe(false);
  });
});
