import { ValidationFailedError } from '../common/errors/validation-failed.error.js';
import { WebhookEventCatalog } from './webhook-event-catalog.js';

describe('WebhookEventCatalog', () => {
  const catalog = () => {
    const kinds = new WebhookEventCatalog();
    kinds.register(['file.created', 'file.deleted']);
    kinds.register(['webhook.ping'], { subscribable: false });
    return kinds;
  };

  it('knows every registered kind, subscribable or not', () => {
    expect(catalog().has('file.created')).toBe(true);
    expect(catalog().has('webhook.ping')).toBe(true);
    expect(catalog().has('file.exploded')).toBe(false);
  });

  it('offers the subscribable kinds and * for subscriptions', () => {
    expect(catalog().subscribableKinds()).toEqual(['file.created', 'file.deleted', '*']);
  });

  it('accepts registered kinds and *, refusing anything else as a validation failure of the field', () => {
    expect(() => catalog().assertSubscribable(['file.deleted', '*'])).not.toThrow();
    const refusal = (() => {
      try {
        catalog().assertSubscribable(['file.created', 'webhook.ping']);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ValidationFailedError);
    expect((refusal as ValidationFailedError).violations).toEqual([
      {
        field: 'events',
        messages: ['each value in events must be one of the following values: file.created, file.deleted, *'],
      },
    ]);
  });
});
