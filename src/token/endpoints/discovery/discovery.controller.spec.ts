import express from 'express';
import request from 'supertest';
import type { JsonWebKey } from 'node:crypto';
import type { PermissionCatalog } from '../../credentials/permission-catalog.service.js';
import type { SigningKeysService } from '../../issuing/signing-keys.service.js';
import { loadTokenConfig } from '../../token.config.js';
import { asReal } from '../../testing/in-memory-repositories.js';
import { DiscoveryController } from './discovery.controller.js';

describe('DiscoveryController', () => {
  let set: { keys: JsonWebKey[] };
  let app: express.Express;

  beforeEach(() => {
    set = { keys: [{ kty: 'EC', kid: 'one' }] };
    const keys = { jwks: () => set };
    const catalog = { list: () => [{ permission: '*' }, { permission: 'product:read' }] };
    const controller = new DiscoveryController(
      asReal<SigningKeysService>(keys as never),
      asReal<PermissionCatalog>(catalog as never),
      loadTokenConfig({ OAUTH_ISSUER: 'https://service.test', OAUTH_PASSWORD_GRANT: 'off' }),
    );
    app = express();
    app.get('/jwks', (req, res) => controller.jwks(req, res));
    app.get('/metadata', (req, res) => controller.metadata(req, res));
  });

  it('sends the key set with an ETag and five minutes of caching, and 304 to a client holding it', async () => {
    const first = await request(app).get('/jwks').expect(200);
    expect(first.body).toEqual(set);
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = first.headers.etag;
    await request(app).get('/jwks').set('If-None-Match', etag).expect(304);
  });

  it('makes the document anew when the published keys change (a rotation)', async () => {
    const before = (await request(app).get('/jwks').expect(200)).headers.etag;
    set = { keys: [...set.keys, { kty: 'EC', kid: 'two' }] };
    const after = await request(app).get('/jwks').set('If-None-Match', before).expect(200);
    expect(after.body).toEqual(set);
    expect(after.headers.etag).not.toBe(before);
  });

  it('sends the metadata: the endpoints under the issuer, the grants served, the permissions as scopes', async () => {
    const res = await request(app).get('/metadata').expect(200);
    expect(res.body).toMatchObject({
      issuer: 'https://service.test',
      token_endpoint: 'https://service.test/api/oauth/token',
      jwks_uri: 'https://service.test/.well-known/jwks.json',
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      scopes_supported: ['*', 'product:read'],
    });
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    await request(app).get('/metadata').set('If-None-Match', res.headers.etag).expect(304);
  });
});
