import { jest } from '@jest/globals';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { Clock } from '@file-fields/nest';
import { verifyWebhookSignature } from '../src/webhooks/sending/verify-webhook-signature.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { startReceiver, type ReceivedWebhook, type TestReceiver } from './support/webhook-receiver.js';
import { eventually } from './support/wait.js';

const GRACE_MS = 60_000;
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,150ms,200ms',
  // Every phase expects each event exactly once. An attempt that times out after the receiver got it is sent again
  // (at least once, as documented); on a loaded CI machine 300 ms was short enough for that to happen once.
  WEBHOOK_TIMEOUT: '10s',
  WEBHOOK_POLL_INTERVAL: '50ms',
  // Short enough to pass by moving the service's clock, yet well within the 5 minutes standardwebhooks tolerates
  // between a delivery's timestamp and its own (real) clock.
  WEBHOOK_SECRET_GRACE: '1m',
};

/** What a stock GitHub-format receiver does: @octokit/webhooks-methods over the raw body and one header. */
const github = (secret: string, hook: ReceivedWebhook, header = 'x-signature') =>
  verify(secret, hook.raw, String(hook.headers[header]));

/** What a stock Standard Webhooks receiver does: true, or the library's reason for refusing. */
const standard = (secret: string, hook: ReceivedWebhook): true | string => {
  try {
    new Webhook(secret).verify(hook.raw, hook.headers as Record<string, string>);
    return true;
  } catch (error) {
    return (error as Error).message;
  }
};

interface Endpoint {
  id: number;
  receiver: TestReceiver;
  /** Its secret before the rotation, then the one the rotation issued. */
  secrets: string[];
}

/**
 * Three endpoints go through a rotation in step: `github` rotated in its scheme, `standard` rotated in its scheme, and
 * `switching`, registered `github` and rotated to `standard`. In each phase every endpoint gets an upload's
 * file.created and a ping, and every delivery is checked with the stock verifiers, never with this service's code.
 */
describe('Webhook signatures that stock verifiers accept, before, during and after a rotation', () => {
  let t: TestApp;
  const endpoints: Record<'github' | 'standard' | 'switching', Endpoint> = {} as never;
  const all = () => Object.values(endpoints);

  const register = async (scheme?: string): Promise<Endpoint> => {
    const receiver = await startReceiver();
    const body = { url: receiver.url, events: ['file.created'], ...(scheme ? { signature_scheme: scheme } : {}) };
    const created = (await t.http.post('/api/webhooks').send(body).expect(201)).body;
    return { id: created.id, receiver, secrets: [created.secret] };
  };
  /** An upload's file.created to every endpoint, and a ping to each; resolves to what each receiver got. */
  const deliverPhase = async () => {
    all().forEach(({ receiver }) => (receiver.received.length = 0));
    const { id } = (await t.http.post('/products').send({ name: 'signed' }).expect(201)).body;
    await t.http.post(`/files/product/${id}/cover`).attach('file', PNG, 'c.png').expect(201);
    for (const { id: endpointId } of all()) await t.http.post(`/api/webhooks/${endpointId}/ping`).expect(202);
    for (const { receiver } of all()) {
      const hooks = await receiver.waitFor(2);
      expect(hooks.map((hook) => hook.body.event).sort()).toEqual(['file.created', 'webhook.ping']);
    }
    // Until the dispatcher has recorded every success, its lease is still open: a later phase that moves the clock
    // past the lease would see it expired and send that delivery again (at least once, as documented).
    for (const { id: endpointId } of all()) {
      await eventually(`no delivery to endpoint ${endpointId} pending`, async () => {
        const pending = (await t.http.get(`/api/webhooks/${endpointId}/deliveries?status=pending`).expect(200)).body;
        return pending.total === 0 ? true : undefined;
      });
    }
  };

  beforeAll(async () => {
    t = await startTestApp(ENV);
    endpoints.github = await register();
    endpoints.standard = await register('standard');
    endpoints.switching = await register('github');
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close({ destroy: true });
    await Promise.all(all().map(({ receiver }) => receiver.close()));
  });

  it('hands out secrets in each scheme’s form', () => {
    expect(endpoints.github.secrets[0]).toMatch(/^ffwh_[A-Za-z0-9_-]{43}$/);
    expect(endpoints.switching.secrets[0]).toMatch(/^ffwh_[A-Za-z0-9_-]{43}$/);
    expect(endpoints.standard.secrets[0]).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it('before a rotation: one X-Signature (github), or the Standard Webhooks headers (standard)', async () => {
    await deliverPhase();
    for (const { receiver, secrets } of [endpoints.github, endpoints.switching]) {
      for (const hook of receiver.received) {
        expect(String(hook.headers['x-signature'])).toMatch(/^sha256=[0-9a-f]{64}$/);
        expect(hook.headers).not.toHaveProperty('x-signature-next');
        expect(hook.headers).not.toHaveProperty('webhook-signature');
        await expect(github(secrets[0], hook)).resolves.toBe(true);
      }
    }
    for (const hook of endpoints.standard.receiver.received) {
      expect(hook.headers).toMatchObject({
        'webhook-id': hook.body.id,
        'webhook-timestamp': String(hook.body.timestamp),
        'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
      });
      expect(hook.headers).not.toHaveProperty('x-signature');
      expect(standard(endpoints.standard.secrets[0], hook)).toBe(true);
    }
  });

  it('a PATCH does not change the scheme: that takes a new secret, so a rotation', async () => {
    const { id } = endpoints.switching;
    const refused = expectProblem(
      await t.http.patch(`/api/webhooks/${id}`).send({ signature_scheme: 'standard' }),
      409,
      'signature-scheme-change-needs-rotation',
    );
    expect(refused.detail).toContain(`/api/webhooks/${id}/rotate-secret`);
    await t.http.patch(`/api/webhooks/${id}`).send({ signature_scheme: 'github' }).expect(200);
    expectProblem(
      await t.http.post(`/api/webhooks/${id}/rotate-secret`).send({ signature_scheme: 'svix' }),
      400,
      'validation-failed',
    );
  });

  it('rotates: a new secret in the scheme asked for, and the end of the grace period', async () => {
    const rotations = { github: undefined, standard: undefined, switching: 'standard' };
    for (const [name, scheme] of Object.entries(rotations)) {
      const endpoint = endpoints[name as keyof typeof endpoints];
      const request = t.http.post(`/api/webhooks/${endpoint.id}/rotate-secret`);
      const rotated = (await (scheme ? request.send({ signature_scheme: scheme }) : request).expect(200)).body;
      endpoint.secrets.push(rotated.secret);
      expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(GRACE_MS - 10_000);
    }
    expect(endpoints.github.secrets[1]).toMatch(/^ffwh_/);
    expect(endpoints.standard.secrets[1]).toMatch(/^whsec_/);
    expect(endpoints.switching.secrets[1]).toMatch(/^whsec_/);
    const shown = (await t.http.get(`/api/webhooks/${endpoints.switching.id}`).expect(200)).body;
    expect(shown).toMatchObject({ signature_scheme: 'standard', previous_secret_expires_at: expect.any(String) });
    expect(shown).not.toHaveProperty('secret');
  });

  it('during the grace period: the old secret on X-Signature, the new one on X-Signature-Next', async () => {
    await deliverPhase();
    const [old, next] = endpoints.github.secrets;
    for (const hook of endpoints.github.receiver.received) {
      await expect(github(old, hook)).resolves.toBe(true);
      await expect(github(next, hook, 'x-signature-next')).resolves.toBe(true);
      await expect(github(next, hook)).resolves.toBe(false);
      expect(verifyWebhookSignature(hook.raw, hook.headers, [old]).valid).toBe(true);
      expect(verifyWebhookSignature(hook.raw, hook.headers, [next]).valid).toBe(true);
    }
  });

  it('during the grace period: standardwebhooks accepts the old and the new secret', () => {
    const [old, next] = endpoints.standard.secrets;
    expect(endpoints.standard.receiver.received).toHaveLength(2);
    for (const hook of endpoints.standard.receiver.received) {
      expect(String(hook.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(standard(old, hook)).toBe(true);
      expect(standard(next, hook)).toBe(true);
    }
  });

  it('during the grace period of a scheme change: the old secret in the old scheme, the new one in the new', async () => {
    const [old, next] = endpoints.switching.secrets;
    expect(endpoints.switching.receiver.received).toHaveLength(2);
    for (const hook of endpoints.switching.receiver.received) {
      await expect(github(old, hook)).resolves.toBe(true);
      expect(hook.headers).not.toHaveProperty('x-signature-next');
      expect(standard(next, hook)).toBe(true);
    }
  });

  it('after the grace period: only the new secret signs, X-Signature-Next is gone', async () => {
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(realNow().getTime() + GRACE_MS + 1_000));
    await deliverPhase();

    const [githubOld, githubNew] = endpoints.github.secrets;
    for (const hook of endpoints.github.receiver.received) {
      expect(hook.headers).not.toHaveProperty('x-signature-next');
      await expect(github(githubNew, hook)).resolves.toBe(true);
      await expect(github(githubOld, hook)).resolves.toBe(false);
    }
    const [standardOld, standardNew] = endpoints.standard.secrets;
    for (const hook of endpoints.standard.receiver.received) {
      expect(String(hook.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(standard(standardNew, hook)).toBe(true);
      expect(standard(standardOld, hook)).toBe('No matching signature found');
    }
    const [, switchedTo] = endpoints.switching.secrets;
    for (const hook of endpoints.switching.receiver.received) {
      expect(hook.headers).not.toHaveProperty('x-signature');
      expect(standard(switchedTo, hook)).toBe(true);
    }
  });
});
