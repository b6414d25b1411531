import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './openapi';
import { ApiError, retryAfterSeconds, type ProblemBody } from './problems';

/** The API's schemas, as generated from the committed openapi.json. */
export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

/** What the API client needs from the sign-in session. */
export interface TokenSource {
  /** A valid access token, refreshed first if it is about to expire; undefined when signed out. */
  accessToken(): Promise<string | undefined>;
  /** A new access token after the API refused the current one (401); undefined when the session is over. */
  renewAfterRejection(rejected: string): Promise<string | undefined>;
}

/**
 * The generated client (openapi-fetch over the OpenAPI document's types) with the session's bearer token on every
 * call, in the Authorization header only; a call refused with 401 is sent once more after the token is renewed.
 */
export function createApiClient(tokens: TokenSource, baseUrl = globalThis.location?.origin ?? ''): ApiClient {
  const client = createClient<paths>({ baseUrl });
  const retries = new Map<string, { request: Request; token: string }>();
  client.use({
    async onRequest({ request, id }) {
      const token = await tokens.accessToken();
      if (!token) return request;
      request.headers.set('Authorization', `Bearer ${token}`);
      retries.set(id, { request: request.clone(), token });
      return request;
    },
    async onResponse({ response, id }) {
      const retry = retries.get(id);
      retries.delete(id);
      if (response.status !== 401 || !retry) return response;
      const token = await tokens.renewAfterRejection(retry.token);
      if (!token) return response;
      retry.request.headers.set('Authorization', `Bearer ${token}`);
      return fetch(retry.request);
    },
    onError({ id }) {
      retries.delete(id);
    },
  });
  return client;
}

/** The data of a successful call; an ApiError with a readable message otherwise. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Exclude<T, undefined>> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch (error) {
    // An ApiError from the middleware (a refresh refused on the way) is the answer; anything else is the network.
    if (error instanceof ApiError) throw error;
    throw new ApiError(0, undefined);
  }
  const { response } = result;
  if (!response.ok) {
    const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
    throw new ApiError(response.status, result.error as ProblemBody | undefined, retryAfter);
  }
  return result.data as Exclude<T, undefined>;
}
