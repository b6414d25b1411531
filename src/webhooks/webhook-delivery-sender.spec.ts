import { WebhookEvent } from './entities/webhook-event.entity.js';
import { FakeClock, FakeWebhookEndpointsRepository } from './testing/in-memory-repositories.js';
import { WebhookDeliverySender } from './webhook-delivery-sender.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import { verifyWebhookSignature } from './verify-webhook-signature.js';

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
    const sender = new WebhookDeliverySender(http as WebhookSender, clock);
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

  it('signs with the previous secret too until its grace period ends', async () => {
    const { sent, clock, sender, event, endpoints } = setup();
    const endpoint = endpoints.add({
      secret: 'whsec_new',
      previousSecret: 'whsec_old',
      previousSecretExpiresAt: clock.nowMs() + 1_000,
    });

    await sender.send(endpoint, event);
    clock.advance(1_000);
    await sender.send(endpoint, event);

    expect(sent.map(({ headers }) => headers['X-Signature'].split(', ').length)).toEqual([2, 1]);
  });
});
