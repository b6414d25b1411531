import type { Schemas } from '../../../api/client';
import type { SignatureScheme } from './webhook-queries';

export type Ordering = Schemas['WebhookOrdering'];
export type Payload = Schemas['WebhookPayload'];

/** One value of a setting in words: a short name (lists, choices) and what it means (forms, the endpoint's page). */
export interface Wording {
  label: string;
  description: string;
}

/** The address of the public keys that check `standard-v1a` signatures (the service's, at the UI's origin). */
const KEY_SET_PATH = '/.well-known/webhook-keys.json';
export const keySetUrl = (): string => new URL(KEY_SET_PATH, globalThis.location?.origin ?? 'http://localhost').href;

export const SCHEMES: Record<SignatureScheme, Wording & { secret: boolean }> = {
  github: {
    label: 'GitHub style',
    description: 'Signed with a shared secret, the way GitHub signs its webhooks (X-Signature). Secret ffwh_…',
    secret: true,
  },
  standard: {
    label: 'Standard Webhooks',
    description: 'Signed with a shared secret in the Standard Webhooks format (also Svix’s). Secret whsec_…',
    secret: true,
  },
  'standard-v1a': {
    label: 'Standard Webhooks, public key',
    description:
      'Signed with the service’s own key; the receiver checks it with the public keys the service publishes. ' +
      'No secret to hand over.',
    secret: false,
  },
  'standard-v1-v1a': {
    label: 'Standard Webhooks, secret and public key',
    description: 'Signed both ways at once, so the receiver may check either signature. Secret whsec_…',
    secret: true,
  },
};

/** Whether deliveries in this scheme are signed with a secret the receiver is given (all but public-key only). */
export const hasSecret = (scheme: SignatureScheme): boolean => SCHEMES[scheme].secret;

/** What changes the scheme (a new secret, or none): "Rotate secret", or for an endpoint without one "Change signature". */
export const rotationLabel = (scheme: SignatureScheme): string =>
  hasSecret(scheme) ? 'Rotate secret' : 'Change signature';

export const ORDERINGS: Record<Ordering, Wording> = {
  none: {
    label: 'As soon as possible',
    description: 'Each event is sent on its own, so they may arrive out of order; a retry holds nothing back.',
  },
  'per-entity': {
    label: 'In order, item by item',
    description:
      'Events about one item arrive in the order they happened. While one keeps failing, the later events of that ' +
      'item wait until its retries end.',
  },
};

export const PAYLOADS: Record<Payload, Wording> = {
  full: { label: 'Full details', description: 'Each event carries what changed: the receiver needs nothing else.' },
  thin: {
    label: 'Notice only',
    description:
      'Each event says what changed and links to it, without the details: the receiver fetches them with its own ' +
      'access, so it always reads the current state.',
  },
};

/** The fewest and most deliveries a second a rate limit may allow (the API's `rate_limit`, minimum and maximum). */
export const RATE_LIMIT_MIN = 1;
export const RATE_LIMIT_MAX = 10_000;

/** "At most 5 deliveries a second", or that there is no limit. */
export function rateLimitText(limit: number | null): string {
  if (limit === null) return 'No rate limit';
  return `At most ${limit.toLocaleString('en')} ${limit === 1 ? 'delivery' : 'deliveries'} a second`;
}

const AUTO_RECOVER: Record<'on' | 'off', Wording> = {
  on: {
    label: 'If disabled, re-enables itself',
    description:
      'If the service disables it for failing, it tests it from time to time and turns it back on once it answers, ' +
      'sending what it missed.',
  },
  off: {
    label: 'If disabled, enabled again by hand',
    description: 'If the service disables it for failing, it stays off until someone enables it.',
  },
};

export const autoRecoverWording = (on: boolean): Wording => AUTO_RECOVER[on ? 'on' : 'off'];
