import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '../common/errors/validation-failed.error.js';

/** In an endpoint's `events`: every kind, including those registered later. */
export const ALL_EVENTS = '*';

/**
 * The event kinds this application emits, registered by the parts that publish them, so the outbox knows no
 * feature by name. Endpoints may subscribe to the subscribable ones; the others are sent to one endpoint on demand.
 */
@Injectable()
export class WebhookEventCatalog {
  private readonly kinds = new Set<string>();
  private readonly subscribable = new Set<string>();

  register(kinds: readonly string[], { subscribable = true } = {}): void {
    for (const kind of kinds) {
      this.kinds.add(kind);
      if (subscribable) this.subscribable.add(kind);
    }
  }

  has(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /** What an endpoint may list in `events`, `*` last. */
  subscribableKinds(): string[] {
    return [...this.subscribable, ALL_EVENTS];
  }

  /** Refuses, as a validation failure of the field, a subscription to a kind nothing here emits. */
  assertSubscribable(events: readonly string[], field = 'events'): void {
    const allowed = this.subscribableKinds();
    if (events.every((kind) => allowed.includes(kind))) return;
    throw new ValidationFailedError([
      { field, messages: [`each value in ${field} must be one of the following values: ${allowed.join(', ')}`] },
    ]);
  }
}
