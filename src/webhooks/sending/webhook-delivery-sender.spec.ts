import type { AppConfig } from '../../config/environment.js';
import { WebhookEventCatalog } from '../events/webhook-event-catalog.js';
import { generateKeyPairSync } from 'node:crypto';
import type { WebhookSigningKeys } from '../signing-keys/webhook-signing-keys.js';
import { WebhookEvent } from '../entities/webhook-event.entity.js';
import { FakeClock, FakeWebhookEndpointsRepository } from '../testing/in-memory-repositories.js';
import { WebhookDeliverySender } from './webhook-delivery-sender.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import { verifyWebhookSignature } from './verify-webhook-signature.js';
import { newSigningSecret, signatureOf, standardSignatureOf } from './webhook-signer.js';

describe('WebhookDeliverySender', () => {
  const setup = () => {
    const sent: Array<{ url: string; body: string; headers: Record<string, string> }> = [];
    const http: Pick<WebhookSender, 'send'> = {
      send: (url, body, headers) => {
        sent.push({ url, body, headers });
        return Promise.resolve<SendResult>({ statusCode: 200, durationMs: 1 });
      },
    };
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
    const catalog = new WebhookEventCatalog();
    catalog.register([
      {
        kind: 'file.created',
        description: 'A file was added.',
        dataSchema: { type: 'object' },
        subjectOf: () => ({
          key: 'product:3',
          object: { type: 'file', id: 7, path: '/files/7' },
          entity: { type: 'product', id: 3, path: '/products/3' },
        }),
      },
    ]);
    const sender = new WebhookDeliverySender(
      http as WebhookSender,
      clock,
      {
        current: () => ({ kid: 'k1', privateKey: generateKeyPairSync('ed25519').privateKey }),
      } as unknown as WebhookSigningKeys,
      catalog,
      { issuer: 'https://files.example.org' } as AppConfig,
    );
    const event = Object.assign(new WebhookEvent(), {
      id: 'evt_1',
      kind: 'file.created',
      data: { file: { id: 7 } },
      createdAt: Date.UTC(2026, 0, 1, 11),
    });
    return { sent, clock, sender, event, endpoints: new FakeWebhookEndpointsRepository() };
  };
  const nowSeconds = Date.UTC(2026, 0, 1, 12) / 1000;

  it('posts the event as signed JSON with its id, kind and timestamp in headers', async () => {
    const { sent, sender, event, endpoints } = setup();
    const endpoint = endpoints.add({ url: 'https://example.org/a', secret: 'whsec_a' });

    await expect(sender.send(endpoint, event)).resolves.toEqual({ statusCode: 200, durationMs: 1 });

    const [{ url, body, headers }] = sent;
    expect(url).toBe('https://example.org/a');
    expect(JSON.parse(body)).toEqual({
      id: 'evt_1',
      event: 'file.created',
      created_at: '2026-01-01T11:00:00.000Z',
      timestamp: nowSeconds,
      data: { file: { id: 7 } },
    });
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Webhook-Id': 'evt_1',
      'X-Webhook-Event': 'file.created',
      'X-Webhook-Timestamp': String(nowSeconds),
    });
    const lowerCased = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    expect(verifyWebhookSignature(body, lowerCased, ['whsec_a'], { now: nowSeconds })).toEqual({
      valid: true,
      timestamp: nowSeconds,
    });
  });

  it('github: signs X-Signature with the previous secret and X-Signature-Next with the new one until the grace ends', async () => {
    const { sent, clock, sender, event, endpoints } = setup();
    const endpoint = endpoints.add({
      secret: 'ffwh_new',
      previousSecret: 'whsec_old',
      previousSignatureScheme: 'github',
      previousSecretExpiresAt: clock.nowMs() + 1_000,
    });

    await sender.send(endpoint, event);
    clock.advance(1_000);
    await sender.send(endpoint, event);

    const [during, after] = sent;
    expect(during.headers['X-Signature']).toBe(signatureOf(during.body, 'whsec_old'));
    expect(during.headers['X-Signature-Next']).toBe(signatureOf(during.body, 'ffwh_new'));
    expect(after.headers['X-Signature']).toBe(signatureOf(after.body, 'ffwh_new'));
    expect(after.headers).not.toHaveProperty('X-Signature-Next');
  });

  it('standard: signs the Standard Webhooks way, with both secrets during the grace period', async () => {
    const { sent, clock, sender, event, endpoints } = setup();
    const [old, next] = [newSigningSecret('standard'), newSigningSecret('standard')];
    const endpoint = endpoints.add({
      signatureScheme: 'standard',
      secret: next,
      previousSecret: old,
      previousSignatureScheme: 'standard',
      previousSecretExpiresAt: clock.nowMs() + 1_000,
    });

    await sender.send(endpoint, event);
    clock.advance(1_000);
    await sender.send(endpoint, event);

    /** What the signatures of a request cover, read from the request as a receiver would. */
    const message = ({ body, headers }: (typeof sent)[number]) => ({
      id: headers['webhook-id'],
      timestamp: Number(headers['webhook-timestamp']),
      body,
    });
    const [during, after] = sent;
    expect(during.headers).toMatchObject({
      'X-Webhook-Event': 'file.created',
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(nowSeconds),
      'webhook-signature': `${standardSignatureOf(message(during), old)} ${standardSignatureOf(message(during), next)}`,
    });
    expect(during.headers).not.toHaveProperty('X-Signature');
    expect(after.headers['webhook-signature']).toBe(standardSignatureOf(message(after), next));
  });

  it('a rotation to another scheme signs with the old secret in the old scheme while the grace lasts', async () => {
    const { sent, clock, sender, event, endpoints } = setup();
    const next = newSigningSecret('standard');
    const endpoint = endpoints.add({
      signatureScheme: 'standard',
      secret: next,
      previousSecret: 'ffwh_old',
      previousSignatureScheme: 'github',
      previousSecretExpiresAt: clock.nowMs() + 1_000,
    });

    await sender.send(endpoint, event);
    clock.advance(1_000);
    await sender.send(endpoint, event);

    const [during, after] = sent;
    expect(during.headers['X-Signature']).toBe(signatureOf(during.body, 'ffwh_old'));
    expect(during.headers['webhook-signature']).toBe(
      standardSignatureOf({ id: 'evt_1', timestamp: nowSeconds, body: during.body }, next),
    );
    expect(after.headers).not.toHaveProperty('X-Signature');
    expect(after.headers).toHaveProperty('webhook-signature');
  });

  it('sends a thin payload to an endpoint that asks for one: references and URLs, none of the data', async () => {
    const { sent, sender, event, endpoints } = setup();
    const endpoint = endpoints.add({ url: 'https://example.org/a', secret: 'whsec_a', payload: 'thin' });

    await sender.send(endpoint, event);

    expect(JSON.parse(sent[0].body)).toEqual({
      id: 'evt_1',
      event: 'file.created',
      created_at: '2026-01-01T11:00:00.000Z',
      timestamp: nowSeconds,
      object: { type: 'file', id: 7, url: 'https://files.example.org/files/7' },
      entity: { type: 'product', id: 3, url: 'https://files.example.org/products/3' },
    });
  });
});
