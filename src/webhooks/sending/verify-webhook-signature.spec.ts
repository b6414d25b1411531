import { verifyWebhookSignature } from './verify-webhook-signature.js';
import { signatureOf } from './webhook-signer.js';

/** A delivery as the service sends it: the body carries the attempt's time, the header repeats it. */
function delivery(timestamp: number, secret = 'ffwh_secret') {
  const raw = JSON.stringify({ id: 'evt_1', event: 'file.created', timestamp, data: {} });
  const headers = { 'x-signature': signatureOf(raw, secret), 'x-webhook-timestamp': String(timestamp) };
  return { raw, headers };
}

describe('verifyWebhookSignature: freshness rests on signed data', () => {
  const now = 1_800_000_000;

  it('accepts a fresh delivery', () => {
    const { raw, headers } = delivery(now - 10);
    expect(verifyWebhookSignature(raw, headers, ['ffwh_secret'], { now })).toEqual({
      valid: true,
      timestamp: now - 10,
    });
  });

  it('refuses a delivery captured an hour ago whose unsigned timestamp header was set to now', () => {
    const { raw, headers } = delivery(now - 3600);
    const replayed = { ...headers, 'x-webhook-timestamp': String(now) };
    expect(verifyWebhookSignature(raw, replayed, ['ffwh_secret'], { now })).toEqual({
      valid: false,
      reason: 'timestamp mismatch',
    });
  });

  it('refuses a stale delivery, whatever its header says', () => {
    const { raw, headers } = delivery(now - 3600);
    expect(verifyWebhookSignature(raw, headers, ['ffwh_secret'], { now })).toEqual({
      valid: false,
      reason: 'stale timestamp',
    });
  });

  it('refuses a signed body without a timestamp of its own', () => {
    const raw = JSON.stringify({ id: 'evt_1', event: 'file.created', data: {} });
    const headers = { 'x-signature': signatureOf(raw, 'ffwh_secret'), 'x-webhook-timestamp': String(now) };
    expect(verifyWebhookSignature(raw, headers, ['ffwh_secret'], { now })).toEqual({
      valid: false,
      reason: 'no signed timestamp',
    });
    expect(
      verifyWebhookSignature(
        'not json',
        { ...headers, 'x-signature': signatureOf('not json', 'ffwh_secret') },
        ['ffwh_secret'],
        { now },
      ).valid,
    ).toBe(false);
  });

  it('checks the signature before anything in the body is believed', () => {
    const { raw, headers } = delivery(now);
    expect(verifyWebhookSignature(raw, headers, ['ffwh_other'], { now })).toEqual({
      valid: false,
      reason: 'signature mismatch',
    });
  });
});
