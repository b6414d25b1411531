import createClient from 'openapi-fetch';
import type { paths } from '../api/openapi';
import { unwrap } from '../api/client';
import type { TokenEndpoint } from './session';

type TokenRequest = NonNullable<paths['/api/oauth/token']['post']['requestBody']>['content']['application/json'];

/** The token and revocation endpoints through the generated client (no bearer token: they authenticate the client). */
export function createTokenEndpoint(baseUrl = globalThis.location?.origin ?? ''): TokenEndpoint {
  const client = createClient<paths>({ baseUrl });
  return {
    token: (body) => unwrap(client.POST('/api/oauth/token', { body: body as TokenRequest })),
    revoke: async (refreshToken) => {
      await unwrap(
        client.POST('/api/oauth/revoke', {
          body: { token: refreshToken, token_type_hint: 'refresh_token', client_id: 'administration' },
        }),
      );
    },
  };
}
