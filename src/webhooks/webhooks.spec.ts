import { isPublicAddress } from './sending/ssrf-guard.js';
import { verifyWebhookSignature } from './sending/verify-webhook-signature.js';
import { signatureOf } from './sending/webhook-signer.js';
import { nextDelayMs, parseRetryAfter } from './delivery/webhook-retry-policy.js';

describe('verifyWebhookSignature', () => {
  const body = '{"id":"evt_1","timestamp":1000}';
  const headers = (signature: string, timestamp: number, next?: string) => ({
    'x-signature': signature,
    'x-webhook-timestamp': String(timestamp),
    ...(next === undefined ? {} : { 'x-signature-next': next }),
  });

  it('accepts a fresh request signed with one of the secrets', () => {
    expect(
      verifyWebhookSignature(body, headers(signatureOf(body, 'new'), 1000), ['old', 'new'], { now: 1100 }),
    ).toEqual({ valid: true, timestamp: 1000 });
  });

  it('during a rotation, accepts the old secret on X-Signature or the new one on X-Signature-Next', () => {
    const rotating = headers(signatureOf(body, 'old'), 1000, signatureOf(body, 'new'));
    expect(verifyWebhookSignature(body, rotating, ['old'], { now: 1000 }).valid).toBe(true);
    expect(verifyWebhookSignature(body, rotating, ['new'], { now: 1000 }).valid).toBe(true);
    expect(verifyWebhookSignature(body, rotating, ['other'], { now: 1000 })).toEqual({
      valid: false,
      reason: 'signature mismatch',
    });
  });

  it('refuses a wrong signature, a stale timestamp, or missing headers', () => {
    expect(verifyWebhookSignature(body, headers(signatureOf(body, 'x'), 1000), ['new'], { now: 1000 }).valid).toBe(
      false,
    );
    expect(verifyWebhookSignature(body, headers(signatureOf(body, 'new'), 1000), ['new'], { now: 1400 })).toEqual({
      valid: false,
      reason: 'stale timestamp',
    });
    expect(verifyWebhookSignature(body, {}, ['new']).valid).toBe(false);
    expect(
      verifyWebhookSignature(`${body} `, headers(signatureOf(body, 'new'), 1000), ['new'], { now: 1000 }).valid,
    ).toBe(false);
  });
});

describe('retry policy', () => {
  const schedule = [5_000, 300_000];
  const middle = () => 0.5;

  it('follows the schedule with ±20% jitter and stops when it is exhausted', () => {
    expect(nextDelayMs(schedule, 1, { statusCode: 500 }, middle)).toBe(5_000);
    expect(nextDelayMs(schedule, 1, { statusCode: 500 }, () => 0)).toBe(4_000);
    expect(nextDelayMs(schedule, 1, { statusCode: 500 }, () => 1)).toBe(6_000);
    expect(nextDelayMs(schedule, 2, { statusCode: 500 }, middle)).toBe(300_000);
    expect(nextDelayMs(schedule, 3, { statusCode: 500 }, middle)).toBeUndefined();
  });

  it('waits at least 60 s after a 429 or a timeout', () => {
    expect(nextDelayMs(schedule, 1, { statusCode: 429 }, middle)).toBe(60_000);
    expect(nextDelayMs(schedule, 1, { timedOut: true }, middle)).toBe(60_000);
  });

  it('honours Retry-After up to twice the scheduled delay', () => {
    expect(nextDelayMs(schedule, 2, { statusCode: 503, retryAfterSeconds: 450 }, middle)).toBe(450_000);
    expect(nextDelayMs(schedule, 2, { statusCode: 503, retryAfterSeconds: 100_000 }, middle)).toBe(600_000);
    expect(parseRetryAfter('120', 0)).toBe(120);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});

describe('SSRF address checks', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '100.64.0.1',
    '224.0.0.1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('allows %s', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );
});
