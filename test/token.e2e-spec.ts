import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import request from 'supertest';
import { basic, createIntegration, type CreatedIntegration } from './support/admin-api.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

const TOKEN = '/api/oauth/token';

describe('Token endpoint: POST /api/oauth/token', () => {
  let t: TestApp;
  let reader: CreatedIntegration;
  const api = () => request(t.url);
  const expectOAuthError = (res: request.Response, status: number, error: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error, error_description: expect.any(String) });
  };

  beforeAll(async () => {
    // Every request here comes from 127.0.0.1: lift the per-IP failure limit, which its own suite below tests.
    // Refresh tokens strictly single use here; the reuse grace has its own suite (token-revocation.e2e-spec.ts).
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '1000', REFRESH_REUSE_GRACE: '0' });
    reader = await createIntegration(t, ['product:read', 'article:read']);
  });
  afterAll(async () => t.close({ destroy: true }));

  describe('client_credentials', () => {
    it('issues a one-hour token for a JSON body', async () => {
      const res = await api()
        .post(TOKEN)
        .send({
          grant_type: 'client_credentials',
          client_id: reader.access_key_id,
          client_secret: reader.secret_access_key,
        })
        .expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'product:read article:read',
      });
    });

    it('accepts RFC 6749 Basic authentication with a form body, and client_secret_post', async () => {
      const viaBasic = await api()
        .post(TOKEN)
        .set('Authorization', basic(reader.access_key_id, reader.secret_access_key))
        .type('form')
        .send('grant_type=client_credentials&scope=product%3Aread')
        .expect(200);
      expect(viaBasic.body.scope).toBe('product:read');
      await api()
        .post(TOKEN)
        .type('form')
        .send({
          grant_type: 'client_credentials',
          client_id: reader.access_key_id,
          client_secret: reader.secret_access_key,
        })
        .expect(200);
    });

    it('refuses credentials in both the header and the body', async () => {
      const res = await api()
        .post(TOKEN)
        .set('Authorization', basic(reader.access_key_id, reader.secret_access_key))
        .send({ grant_type: 'client_credentials', client_secret: reader.secret_access_key });
      expectOAuthError(res, 400, 'invalid_request');
    });

    it('401 invalid_client for a wrong secret, with a Basic challenge when Basic was used', async () => {
      const body = await api()
        .post(TOKEN)
        .send({ grant_type: 'client_credentials', client_id: reader.access_key_id, client_secret: 'wrong' });
      expectOAuthError(body, 401, 'invalid_client');
      expect(body.headers['www-authenticate']).toBeUndefined();
      const header = await api()
        .post(TOKEN)
        .set('Authorization', basic(reader.access_key_id, 'wrong'))
        .send({ grant_type: 'client_credentials' });
      expectOAuthError(header, 401, 'invalid_client');
      expect(header.headers['www-authenticate']).toMatch(/^Basic realm=/);
    });

    // Ids of another shape are refused without a lookup: client-credentials.grant.spec.ts.
    it('401 invalid_client for an unknown id', async () => {
      expectOAuthError(
        await api()
          .post(TOKEN)
          .send({ grant_type: 'client_credentials', client_id: 'FFIAAAAAAAAAAAAAAAAAAAAAA', client_secret: 's' }),
        401,
        'invalid_client',
      );
    });

    it('400 invalid_scope for a scope the role does not grant', async () => {
      const res = await api().post(TOKEN).send({
        grant_type: 'client_credentials',
        client_id: reader.access_key_id,
        client_secret: reader.secret_access_key,
        scope: 'product:write',
      });
      expectOAuthError(res, 400, 'invalid_scope');
    });

    it('400 unauthorized_client when the administration client asks for client_credentials', async () => {
      expectOAuthError(
        await api()
          .post(TOKEN)
          .send({ grant_type: 'client_credentials', client_id: 'administration', client_secret: 'x' }),
        400,
        'unauthorized_client',
      );
    });
  });

  // What a malformed request is, parameter by parameter, is token-request.spec.ts: here, what only HTTP can send.
  describe('malformed requests', () => {
    it.each([
      [
        'an unknown grant_type',
        'application/json',
        '{"grant_type":"implicit","client_id":"x"}',
        400,
        'unsupported_grant_type',
      ],
      ['malformed JSON', 'application/json', '{"grant_type": ', 400, 'invalid_request'],
      [
        'a repeated form parameter',
        'application/x-www-form-urlencoded',
        'grant_type=password&grant_type=client_credentials',
        400,
        'invalid_request',
      ],
    ])('%s is %s %s', async (_name, type, body, status, error) => {
      expectOAuthError(await api().post(TOKEN).set('Content-Type', type).send(body), status, error);
    });

    it('a broken Basic header is invalid_client with a Basic challenge, never a 500', async () => {
      const header = `Basic ${Buffer.from('no-colon').toString('base64')}`;
      const res = await api().post(TOKEN).set('Authorization', header).send({ grant_type: 'client_credentials' });
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    });
  });

  describe('password and refresh_token (administration interface)', () => {
    const signIn = () =>
      api()
        .post(TOKEN)
        .send({ grant_type: 'password', client_id: 'administration', username: 'admin', password: ADMIN_PASSWORD })
        .expect(200);
    const refresh = (token: string) =>
      api().post(TOKEN).send({ grant_type: 'refresh_token', client_id: 'administration', refresh_token: token });

    it('signs in with JSON or a form and returns a refresh token', async () => {
      const json = await signIn();
      expect(json.body).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        scope: '*',
        refresh_token: expect.any(String),
      });
      const form = await api()
        .post(TOKEN)
        .type('form')
        .send({ grant_type: 'password', client_id: 'administration', username: 'admin', password: ADMIN_PASSWORD })
        .expect(200);
      expect(form.body.refresh_token).not.toBe(json.body.refresh_token);
    });

    // Refusals made before any password is checked are password.grant.spec.ts.
    it('400 invalid_grant for a wrong password or unknown user', async () => {
      const grant = { grant_type: 'password', client_id: 'administration' };
      expectOAuthError(
        await api()
          .post(TOKEN)
          .send({ ...grant, username: 'admin', password: 'nope' }),
        400,
        'invalid_grant',
      );
      expectOAuthError(
        await api()
          .post(TOKEN)
          .send({ ...grant, username: 'ghost', password: 'nope' }),
        400,
        'invalid_grant',
      );
    });

    it('rotates on every use; reusing a rotated token revokes the whole sign-in', async () => {
      const first = (await signIn()).body.refresh_token as string;
      const second = await refresh(first).expect(200);
      expect(second.body.refresh_token).not.toBe(first);
      const third = await refresh(second.body.refresh_token as string).expect(200);
      expectOAuthError(await refresh(first), 400, 'invalid_grant');
      expectOAuthError(await refresh(third.body.refresh_token as string), 400, 'invalid_grant');
    });

    it('lets exactly one of two concurrent refreshes with the same token succeed', async () => {
      const token = (await signIn()).body.refresh_token as string;
      const results = await Promise.all([refresh(token), refresh(token)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    });

    it('400 invalid_grant for an unknown refresh token', async () => {
      expectOAuthError(await refresh('not-a-token'), 400, 'invalid_grant');
    });
  });

  describe('real clients', () => {
    it('openid-client obtains a token through the RFC 8414 metadata; jose verifies it against the JWKS', async () => {
      const config = await client.discovery(new URL(t.url), reader.access_key_id, reader.secret_access_key, undefined, {
        algorithm: 'oauth2',
        execute: [client.allowInsecureRequests],
      });
      const tokens = await client.clientCredentialsGrant(config, { scope: 'product:read' });
      expect(tokens.token_type).toBe('bearer');
      const jwks = createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks.json`));
      const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
        issuer: t.url,
        audience: t.url,
        typ: 'at+jwt',
        algorithms: ['ES256'],
      });
      expect(protectedHeader.kid).toEqual(expect.any(String));
      expect(payload).toMatchObject({
        client_id: reader.access_key_id,
        scope: 'product:read',
        sub: `integration:${reader.id}`,
      });
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(payload.jti).toEqual(expect.any(String));
      await request(t.url).get('/products').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
    });

    it('publishes the metadata document', async () => {
      const res = await api().get('/.well-known/oauth-authorization-server').expect(200);
      expect(res.body).toMatchObject({
        issuer: t.url,
        token_endpoint: `${t.url}${TOKEN}`,
        jwks_uri: `${t.url}/.well-known/jwks.json`,
        revocation_endpoint: `${t.url}/api/oauth/revoke`,
        grant_types_supported: expect.arrayContaining(['client_credentials', 'password', 'refresh_token']),
        scopes_supported: expect.arrayContaining(['*', 'product:read', 'article:write', 'role:write']),
      });
      // The scopes a token request may name are the permission catalog.
      const catalog = (await t.http.get('/api/permissions').expect(200)).body as Array<{ permission: string }>;
      expect(res.body.scopes_supported).toEqual(catalog.map((entry) => entry.permission));
    });
  });
});

describe('Token endpoint rate limiting', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TOKEN_FAILURES_PER_MINUTE: '3', TOKEN_FAILURE_WINDOW_SECONDS: '2' });
  });
  afterAll(async () => t.close({ destroy: true }));

  // That the client is let back in when the window ends is shown without sleeping in token-failure-limiter.spec.ts.
  it('answers 429 with a Retry-After within the configured window past the limit', async () => {
    const integration = await createIntegration(t, ['product:read']);
    const attempt = (secret: string) =>
      request(t.url)
        .post(TOKEN)
        .send({ grant_type: 'client_credentials', client_id: integration.access_key_id, client_secret: secret });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong')).status).toBe(401);
    const limited = await attempt(integration.secret_access_key);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(2);
    expect(limited.body.error).toBe('invalid_request');
  });
});
