/**
 * Benchmark peer (not a test): node-oidc-provider configured like the service's client_credentials grant, one
 * confidential client (client_secret_post) and ES256-signed JWT access tokens for one resource server, which every
 * token request gets by default (so the request body is the same as the service's: grant_type, client_id,
 * client_secret). Listens on 127.0.0.1:$PORT; the token endpoint is POST /token (form-encoded, as RFC 6749 says).
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const resource = 'https://api.bench.invalid/';
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.OIDC_CLIENT_ID,
      client_secret: process.env.OIDC_CLIENT_SECRET,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'ES256',
    },
  ],
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig', kid: 'bench-es256' }] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      getResourceServerInfo: () => ({
        scope: 'product:read article:read',
        audience: resource,
        accessTokenTTL: 3600,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'ES256' } },
      }),
    },
  },
});

const server = createServer(provider.callback());
process.once('SIGTERM', () => server.close(() => process.exit(0)));
server.listen(port, '127.0.0.1');
