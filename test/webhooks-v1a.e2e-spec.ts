import { jest } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { customFetch } from 'jose';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { Clock } from '@file-fields/nest';
import { createIntegration, integrationToken } from './support/admin-api.js';
import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';
import { startReceiver, type ReceivedWebhook, type TestReceiver } from './support/webhook-receiver.js';
import { v1aVerifier } from './support/webhook-v1a-verifier.js';

const MINUTE = 60_000;
const PREPUBLISH_MS = 2 * MINUTE;
const TIMEOUT_MS = 10_000;
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,150ms,200ms',
  WEBHOOK_TIMEOUT: `${TIMEOUT_MS / 1000}s`,
  WEBHOOK_POLL_INTERVAL: '50ms',
  // The shortest allowed: moving the service's clock past it leaves its timestamps within the 5 minutes the receivers
  // (on the real clock) tolerate.
  WEBHOOK_SIGNING_KEY_PREPUBLISH: '2m',
};
const KEYS_PATH = '/.well-known/webhook-keys.json';
const ROTATE = '/api/webhooks/signing-keys/rotate';
/** An Ed25519 signature (64 bytes) in standard base64. */
const V1A = /^v1a,[A-Za-z0-9+/]{86}==$/;

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
  alg: string;
  use: string;
  d?: string;
}
interface SigningKeyView {
  kid: string;
  algorithm: string;
  state: 'upcoming' | 'signing' | 'retired';
  activates_at: string;
  retired_at: string | null;
  published_until: string | null;
}
interface Endpoint {
  id: number;
  receiver: TestReceiver;
  created: Record<string, unknown>;
}

/** What a stock Standard Webhooks receiver does: true, or the library's reason for refusing. */
const standard = (secret: string, hook: ReceivedWebhook): true | string => {
  try {
    new Webhook(secret).verify(hook.raw, hook.headers as Record<string, string>);
    return true;
  } catch (error) {
    return (error as Error).message;
  }
};

/** The delivery with some headers, or its body, changed on the way. */
const tampered = (hook: ReceivedWebhook, headers: Record<string, string>, raw = hook.raw) => ({
  raw,
  headers: { ...hook.headers, ...headers },
});

/**
 * `standard-v1a` and `standard-v1-v1a` endpoints, and the service's Ed25519 keys through a rotation. Every delivery is
 * checked as a receiver would: with nothing but the key set's URL (test/support/webhook-v1a-verifier.ts, the code
 * docs/webhooks-receiving.md shows), and with the stock `standardwebhooks` library for `v1`.
 */
describe('Webhook signatures v1a (Ed25519), verified with the published key set alone', () => {
  let t: TestApp;
  let keysUrl: string;
  let v1a: Endpoint;
  let both: Endpoint;
  /** A receiver's verifier that lives through the whole suite, counting its fetches of the key set. */
  let watcher: ReturnType<typeof v1aVerifier>;
  let watcherFetches = 0;
  /** The key signing at start, and a delivery it signed. */
  let firstKid: string;
  let firstHook: ReceivedWebhook;
  /** The key the rotation added, and a delivery the first key signed after the rotation. */
  let rotated: SigningKeyView;
  let beforeActivationHook: ReceivedWebhook;
  let firstEtag: string;

  const register = async (scheme: string): Promise<Endpoint> => {
    const receiver = await startReceiver();
    const body = { url: receiver.url, events: ['file.created'], signature_scheme: scheme };
    const created = (await t.http.post('/api/webhooks').send(body).expect(201)).body as Record<string, unknown>;
    return { id: created.id as number, receiver, created };
  };
  /** Pings the endpoint and resolves to that delivery once the service has recorded its success. */
  const ping = async ({ id, receiver }: Endpoint): Promise<ReceivedWebhook> => {
    const { event_id } = (await t.http.post(`/api/webhooks/${id}/ping`).expect(202)).body as { event_id: string };
    const hook = await eventually(`ping ${event_id} at endpoint ${id}`, () =>
      receiver.received.find((received) => received.body.id === event_id),
    );
    // Until the success is recorded the delivery's lease is open: moving the clock past it would send it again.
    await eventually(`no delivery to endpoint ${id} pending`, async () => {
      const pending = (await t.http.get(`/api/webhooks/${id}/deliveries?status=pending`).expect(200)).body;
      return pending.total === 0 ? true : undefined;
    });
    return hook;
  };
  /** The published key set, fetched without credentials as a receiver does. */
  const keySet = async () => {
    const res = await request(t.url).get(KEYS_PATH).expect(200);
    return { keys: (res.body as { keys: Jwk[] }).keys, etag: String(res.headers.etag) };
  };
  const publishedKids = async () => (await keySet()).keys.map((key) => key.kid).sort();
  const signingKeys = async () => (await t.http.get('/api/webhooks/signing-keys').expect(200)).body as SigningKeyView[];
  /** The service's clock from `ms` on (it keeps running); the receivers keep the real one. */
  const moveClockTo = (ms: number) => {
    const offset = ms - Date.now();
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + offset));
  };

  beforeAll(async () => {
    t = await startTestApp(ENV);
    keysUrl = `${t.url}${KEYS_PATH}`;
    v1a = await register('standard-v1a');
    both = await register('standard-v1-v1a');
    const counting: typeof fetch = (input, init) => {
      watcherFetches++;
      return fetch(input, init);
    };
    // jose refetches the set for an unknown kid at most every 30 s; here the 2 minutes between a key's publication and
    // its first signature pass in a moment (the service's clock jumps), so this receiver has no cooldown.
    watcher = v1aVerifier(keysUrl, { cooldownDuration: 0, [customFetch]: counting });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close({ destroy: true });
    await Promise.all([v1a, both].map((endpoint) => endpoint?.receiver.close()));
  });

  it('gives a standard-v1a endpoint no shared secret, on registration or rotation; standard-v1-v1a a whsec_ one', async () => {
    expect(v1a.created).toMatchObject({ id: expect.any(Number), signature_scheme: 'standard-v1a' });
    expect(v1a.created).not.toHaveProperty('secret');
    const rotation = (await t.http.post(`/api/webhooks/${v1a.id}/rotate-secret`).expect(200)).body;
    expect(rotation).toMatchObject({ id: v1a.id, signature_scheme: 'standard-v1a' });
    expect(rotation).not.toHaveProperty('secret');
    expect(both.created).toMatchObject({
      signature_scheme: 'standard-v1-v1a',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
  });

  it('signs a standard-v1a delivery with one v1a signature by the key webhook-key-id names', async () => {
    firstHook = await ping(v1a);
    firstKid = String(firstHook.headers['webhook-key-id']);
    expect(firstHook.headers).toMatchObject({
      'webhook-id': firstHook.body.id,
      'webhook-timestamp': String(firstHook.body.timestamp),
      'webhook-signature': expect.stringMatching(V1A),
    });
    expect(firstHook.headers).not.toHaveProperty('x-signature');
    expect(await publishedKids()).toEqual([firstKid]);

    // A receiver that knows only the key set's URL.
    await expect(v1aVerifier(keysUrl)(firstHook.raw, firstHook.headers)).resolves.toEqual({
      valid: true,
      kid: firstKid,
    });
    await expect(watcher(firstHook.raw, firstHook.headers)).resolves.toEqual({ valid: true, kid: firstKid });
    expect(watcherFetches).toBe(1);
  });

  it('refuses a changed body, id or timestamp, a stale timestamp and an unknown key; standardwebhooks has no v1 to check', async () => {
    const hook = firstHook;
    const changedBody = hook.raw.replace('"webhook.ping"', '"webhook.pong"');
    expect(changedBody).not.toBe(hook.raw);
    const timestamp = Number(hook.headers['webhook-timestamp']);
    for (const changed of [
      tampered(hook, {}, changedBody),
      tampered(hook, { 'webhook-timestamp': String(timestamp + 1) }),
      tampered(hook, { 'webhook-timestamp': String(timestamp - 1) }),
      tampered(hook, { 'webhook-id': `${hook.body.id}x` }),
      tampered(hook, { 'webhook-signature': 'v1a,AAAA' }),
      tampered(hook, { 'webhook-signature': String(hook.headers['webhook-signature']).replace('v1a,', 'v1,') }),
    ]) {
      await expect(watcher(changed.raw, changed.headers)).resolves.toEqual({
        valid: false,
        reason: 'signature mismatch',
      });
    }
    const unknown = tampered(hook, { 'webhook-key-id': 'not-a-published-kid' });
    await expect(v1aVerifier(keysUrl)(unknown.raw, unknown.headers)).resolves.toEqual({
      valid: false,
      reason: 'no published key not-a-published-kid',
    });
    // A key set out of reach is no answer about the delivery: the receiver fails (5xx), and the service retries.
    await expect(v1aVerifier(`${t.url}/no-key-set-here`)(hook.raw, hook.headers)).rejects.toThrow(/200 OK/);
    // 5 minutes and a second after it was sent, the same delivery is a replay.
    const later = v1aVerifier(keysUrl, { now: () => timestamp * 1000 + 5 * MINUTE + 1_000 });
    await expect(later(hook.raw, hook.headers)).resolves.toEqual({ valid: false, reason: 'stale timestamp' });
    await expect(v1aVerifier(keysUrl)(hook.raw, hook.headers)).resolves.toMatchObject({ valid: true });

    // The stock verifier checks v1 (HMAC) only and skips v1a: with any whsec_ secret it finds nothing it accepts.
    expect(standard(String(both.created.secret), hook)).toBe('No matching signature found');
  });

  it('signs a standard-v1-v1a delivery twice: standardwebhooks with the secret and the key set alone each accept it', async () => {
    const hook = await ping(both);
    const signatures = String(hook.headers['webhook-signature']).split(' ');
    expect(signatures).toEqual([expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/), expect.stringMatching(V1A)]);
    expect(hook.headers['webhook-key-id']).toBe(firstKid);
    const secret = String(both.created.secret);
    expect(standard(secret, hook)).toBe(true);
    await expect(v1aVerifier(keysUrl)(hook.raw, hook.headers)).resolves.toEqual({ valid: true, kid: firstKid });

    const changed = hook.raw.replace('"webhook.ping"', '"webhook.pong"');
    expect(standard(secret, { ...hook, raw: changed })).toBe('No matching signature found');
    await expect(watcher(changed, hook.headers)).resolves.toMatchObject({ valid: false });
  });

  it('publishes the key set to anyone: Ed25519 public keys only, cached, with an ETag', async () => {
    const res = await request(t.url).get(KEYS_PATH).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    firstEtag = String(res.headers.etag);
    const { keys } = res.body as { keys: Jwk[] };
    expect(keys).toEqual([
      {
        kty: 'OKP',
        crv: 'Ed25519',
        x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        kid: firstKid,
        alg: 'EdDSA',
        use: 'sig',
      },
    ]);
    for (const key of keys) expect(key).not.toHaveProperty('d');

    const again = await request(t.url).get(KEYS_PATH).set('If-None-Match', firstEtag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(firstEtag);
    // Not the access tokens' keys: those are ES256, in /.well-known/jwks.json.
    const tokens = (await request(t.url).get('/.well-known/jwks.json').expect(200)).body as { keys: Jwk[] };
    expect(tokens.keys.map((key) => key.kid)).not.toContain(firstKid);
  });

  it('lets webhook:write list the keys, and only an administrator rotate them', async () => {
    const integration = await createIntegration(t, ['webhook:write'], 'webhook manager');
    const token = await integrationToken(t.url, integration);
    const manager = request.agent(t.url).set('Authorization', `Bearer ${token}`);
    const listed = (await manager.get('/api/webhooks/signing-keys').expect(200)).body as SigningKeyView[];
    expect(listed).toEqual([
      {
        kid: firstKid,
        algorithm: 'EdDSA',
        state: 'signing',
        activates_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        retired_at: null,
        published_until: null,
      },
    ]);
    expectProblem(await manager.post(ROTATE), 403, 'insufficient-scope');
    expectProblem(await request(t.url).post(ROTATE), 401);
    expectProblem(await request(t.url).get('/api/webhooks/signing-keys'), 401);
    expect(await publishedKids()).toEqual([firstKid]);
    expect((await t.http.get('/api/audit-events?action=webhook-signing-key.rotate').expect(200)).body.total).toBe(0);
  });

  it('rotates by API: the new key is published at once, while the current one goes on signing', async () => {
    const before = Date.now();
    const res = await t.http.post(ROTATE).expect(201);
    rotated = res.body as SigningKeyView;
    expect(rotated).toEqual({
      kid: expect.any(String),
      algorithm: 'EdDSA',
      state: 'upcoming',
      activates_at: expect.any(String),
      retired_at: null,
      published_until: null,
    });
    expect(rotated.kid).not.toBe(firstKid);
    const activatesAt = Date.parse(rotated.activates_at);
    expect(activatesAt).toBeGreaterThanOrEqual(before + PREPUBLISH_MS);
    expect(activatesAt).toBeLessThanOrEqual(Date.now() + PREPUBLISH_MS);

    const set = await keySet();
    expect(set.keys.map((key) => key.kid).sort()).toEqual([firstKid, rotated.kid].sort());
    expect(set.etag).not.toBe(firstEtag);
    await request(t.url).get(KEYS_PATH).set('If-None-Match', firstEtag).expect(200);
    expect(await signingKeys()).toEqual([
      rotated,
      {
        kid: firstKid,
        algorithm: 'EdDSA',
        state: 'signing',
        activates_at: expect.any(String),
        retired_at: rotated.activates_at,
        published_until: new Date(activatesAt + TIMEOUT_MS + 5 * MINUTE).toISOString(),
      },
    ]);

    const trail = (await t.http.get('/api/audit-events?action=webhook-signing-key.rotate').expect(200)).body as {
      items: Array<Record<string, unknown>>;
    };
    expect(trail.items).toEqual([
      expect.objectContaining({
        actor: expect.stringMatching(/^user:\d+$/),
        client_id: 'administration',
        action: 'webhook-signing-key.rotate',
        target_type: 'webhook-signing-key',
        target_id: rotated.kid,
        outcome: 'success',
        request_id: res.headers['x-request-id'],
      }),
    ]);

    // Deliveries are still signed with the first key; a receiver holding the set from before verifies them as it was.
    beforeActivationHook = await ping(v1a);
    expect(beforeActivationHook.headers['webhook-key-id']).toBe(firstKid);
    const { raw, headers } = beforeActivationHook;
    await expect(watcher(raw, headers)).resolves.toEqual({ valid: true, kid: firstKid });
    expect(watcherFetches).toBe(1);
    // webhook-key-id picks the key: the new one (published) did not make this signature.
    const otherKey = tampered(beforeActivationHook, { 'webhook-key-id': rotated.kid });
    await expect(v1aVerifier(keysUrl)(otherKey.raw, otherKey.headers)).resolves.toEqual({
      valid: false,
      reason: 'signature mismatch',
    });
  });

  it('signs with the new key after the prepublish time; a receiver fetches the set again for its kid', async () => {
    moveClockTo(Date.parse(rotated.activates_at) + 1_000);
    expect((await signingKeys()).map(({ kid, state }) => [kid, state])).toEqual([
      [rotated.kid, 'signing'],
      [firstKid, 'retired'],
    ]);

    const hook = await ping(v1a);
    expect(hook.headers['webhook-key-id']).toBe(rotated.kid);
    expect(String(hook.headers['webhook-signature'])).toMatch(V1A);
    await expect(watcher(hook.raw, hook.headers)).resolves.toEqual({ valid: true, kid: rotated.kid });
    expect(watcherFetches).toBe(2);

    const dual = await ping(both);
    expect(dual.headers['webhook-key-id']).toBe(rotated.kid);
    expect(standard(String(both.created.secret), dual)).toBe(true);
    await expect(watcher(dual.raw, dual.headers)).resolves.toEqual({ valid: true, kid: rotated.kid });

    // The retired key is still published: what it signed before still verifies, for a receiver new to the set too.
    expect(await publishedKids()).toEqual([firstKid, rotated.kid].sort());
    const { raw, headers } = beforeActivationHook;
    await expect(v1aVerifier(keysUrl)(raw, headers)).resolves.toEqual({ valid: true, kid: firstKid });
  });

  it('keeps the retired key published until WEBHOOK_TIMEOUT + 5 minutes after its retirement, then drops it', async () => {
    const { published_until } = (await signingKeys()).find((key) => key.kid === firstKid)!;
    const leaves = Date.parse(String(published_until));
    expect(leaves).toBe(Date.parse(rotated.activates_at) + TIMEOUT_MS + 5 * MINUTE);

    moveClockTo(leaves - 1_000);
    expect(await publishedKids()).toEqual([firstKid, rotated.kid].sort());

    moveClockTo(leaves + 1_000);
    const set = await keySet();
    expect(set.keys.map((key) => key.kid)).toEqual([rotated.kid]);
    expect(await signingKeys()).toEqual([
      { ...rotated, state: 'signing', activates_at: rotated.activates_at, retired_at: null, published_until: null },
    ]);
    // Its signature is unverifiable now (the delivery itself is still within the receiver's 5 minutes).
    const { raw, headers } = beforeActivationHook;
    await expect(v1aVerifier(keysUrl)(raw, headers)).resolves.toEqual({
      valid: false,
      reason: `no published key ${firstKid}`,
    });
  });

  it('rotates twice before the first new key signs: both are upcoming, the first until the second takes over', async () => {
    const first = (await t.http.post(ROTATE).expect(201)).body as SigningKeyView;
    const second = (await t.http.post(ROTATE).expect(201)).body as SigningKeyView;
    expect(Date.parse(second.activates_at)).toBeGreaterThanOrEqual(Date.parse(first.activates_at));
    const leaves = new Date(Date.parse(second.activates_at) + TIMEOUT_MS + 5 * MINUTE).toISOString();
    expect(await signingKeys()).toEqual([
      expect.objectContaining({ kid: second.kid, state: 'upcoming', retired_at: null, published_until: null }),
      expect.objectContaining({
        kid: first.kid,
        state: 'upcoming',
        retired_at: second.activates_at,
        published_until: leaves,
      }),
      expect.objectContaining({ kid: rotated.kid, state: 'signing', retired_at: first.activates_at }),
    ]);
    expect(await publishedKids()).toEqual([first.kid, second.kid, rotated.kid].sort());
  });

  it('is what docs/webhooks-receiving.md shows a receiver', async () => {
    const docs = await readFile('docs/webhooks-receiving.md', 'utf8');
    const marker = docs.indexOf('<!-- test/webhooks-v1a.e2e-spec.ts checks that the next block is');
    expect(marker).toBeGreaterThan(0);
    const block = /```ts\n([\s\S]*?)^```$/m.exec(docs.slice(marker))?.[1];
    const source = await readFile('test/support/webhook-v1a-verifier.ts', 'utf8');
    // The file without its opening comment, which says where it is quoted.
    expect(block).toBe(source.replace(/^\/\*[\s\S]*?\*\/\n/, ''));
  });
});
