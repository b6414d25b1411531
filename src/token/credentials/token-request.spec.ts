import { OAuthError } from './oauth-error.js';
import { parseRevocationRequest, parseTokenRequest } from './token-request.js';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** The OAuthError the parser throws for these inputs. */
function failure(
  body: unknown,
  authorization?: string,
  parse: typeof parseTokenRequest | typeof parseRevocationRequest = parseTokenRequest,
): OAuthError {
  try {
    parse(body, authorization);
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('The request was accepted');
}

describe('parseTokenRequest', () => {
  it('reads a JSON or form body with client_secret_post', () => {
    const body = { grant_type: 'client_credentials', client_id: 'FFIA1', client_secret: 's3cret', scope: 'a:read' };
    expect(parseTokenRequest(body, undefined)).toEqual({
      grantType: 'client_credentials',
      client: { clientId: 'FFIA1', clientSecret: 's3cret', method: 'client_secret_post' },
      params: body,
    });
  });

  it('reads a public client from client_id alone', () => {
    const request = parseTokenRequest({ grant_type: 'password', client_id: 'administration' }, undefined);
    expect(request.client).toEqual({ clientId: 'administration', method: 'none' });
  });

  it('ignores parameters it does not know, whatever their type', () => {
    const request = parseTokenRequest({ grant_type: 'password', client_id: 'a', extra: { nested: 1 } }, undefined);
    expect(request.params).toEqual({ grant_type: 'password', client_id: 'a' });
  });

  it.each([null, 'grant_type=password', ['grant_type'], 42])('refuses a body that is not an object: %j', (body) => {
    expect(failure(body)).toMatchObject({ error: 'invalid_request', status: 400 });
  });

  it('refuses a repeated parameter (a form field given twice arrives as an array)', () => {
    const error = failure({ grant_type: 'password', client_id: ['a', 'b'] });
    expect(error).toMatchObject({ error: 'invalid_request', description: 'The parameter client_id is repeated.' });
  });

  it('refuses a repeated parameter even when it is one the endpoint ignores', () => {
    expect(failure({ grant_type: 'password', client_id: 'a', other: ['x', 'y'] }).error).toBe('invalid_request');
  });

  it('refuses a known parameter that is not a string', () => {
    expect(failure({ grant_type: 'password', client_id: 'a', scope: 5 }).description).toBe(
      'The parameter scope must be a string.',
    );
    expect(failure({ grant_type: 'client_credentials', client_id: { a: 1 } })).toMatchObject({
      error: 'invalid_request',
      description: 'The parameter client_id must be a string.',
    });
  });

  it('refuses a request without grant_type or without any client', () => {
    expect(failure({ client_id: 'a' }).description).toBe('The parameter grant_type is missing.');
    expect(failure({ grant_type: 'password' }).description).toBe('The parameter client_id is missing.');
  });

  it('reads Basic credentials, URL-decoded (RFC 6749 §2.3.1)', () => {
    const request = parseTokenRequest({ grant_type: 'client_credentials' }, basic('FFIA1', 'a:b c+d%'));
    expect(request.client).toEqual({ clientId: 'FFIA1', clientSecret: 'a:b c+d%', method: 'client_secret_basic' });
  });

  it('accepts a body client_id that repeats the Basic one', () => {
    const request = parseTokenRequest({ grant_type: 'client_credentials', client_id: 'FFIA1' }, basic('FFIA1', 's'));
    expect(request.client.method).toBe('client_secret_basic');
  });

  it.each([
    [{ client_secret: 's' }, 'a secret in the body'],
    [{ client_id: 'FFIA2' }, 'a different client_id in the body'],
  ])('refuses credentials in both places: %j (%s)', (extra: Record<string, string>, _case: string) => {
    const error = failure({ grant_type: 'client_credentials', ...extra }, basic('FFIA1', 's'));
    expect(error).toMatchObject({ error: 'invalid_request', status: 400 });
    expect(error.description).toMatch(/both in the header and in the body/);
  });

  it.each([
    ['Bearer abc', /not Basic/],
    ['Basic', /not Basic/],
    ['Basic !!!', /not Basic/],
    [`Basic ${Buffer.from('no-colon').toString('base64')}`, /malformed/],
    [`Basic ${Buffer.from(':secret').toString('base64')}`, /malformed/],
    [`Basic ${Buffer.from('id:%E0%A4%A').toString('base64')}`, /URL-encoded/],
    [`Basic ${Buffer.from('%zz:x').toString('base64')}`, /URL-encoded/],
    [`Basic ${Buffer.from('id%00:secret').toString('base64')}`, /U\+0000/],
    [`Basic ${Buffer.from('id:sec%00ret').toString('base64')}`, /U\+0000/],
  ])('refuses a broken Authorization header %s as invalid_client with a Basic challenge', (header, description) => {
    const error = failure({ grant_type: 'client_credentials' }, header);
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 });
    expect(error.description).toMatch(description);
    expect(error.headers['WWW-Authenticate']).toMatch(/^Basic /);
  });
});

describe('parseRevocationRequest', () => {
  const revocationFailure = (body: unknown, authorization?: string) =>
    failure(body, authorization, parseRevocationRequest);

  it('reads the token and the client, JSON or form, ignoring token_type_hint whatever its value', () => {
    for (const hint of [{}, ...['refresh_token', 'access_token', 'id_token'].map((h) => ({ token_type_hint: h }))]) {
      const body = { token: 't0k3n', ...hint, client_id: 'administration' };
      expect(parseRevocationRequest(body, undefined)).toEqual({
        token: 't0k3n',
        client: { clientId: 'administration', method: 'none' },
      });
    }
  });

  it('authenticates the client as the token endpoint does: Basic, or client_secret_post', () => {
    expect(parseRevocationRequest({ token: 't' }, basic('FFIA1', 's')).client).toEqual({
      clientId: 'FFIA1',
      clientSecret: 's',
      method: 'client_secret_basic',
    });
    expect(parseRevocationRequest({ token: 't', client_id: 'FFIA1', client_secret: 's' }, undefined).client).toEqual({
      clientId: 'FFIA1',
      clientSecret: 's',
      method: 'client_secret_post',
    });
    expect(revocationFailure({ token: 't', client_secret: 's' }, basic('FFIA1', 's')).error).toBe('invalid_request');
    expect(revocationFailure({ token: 't' }, 'Basic !!!')).toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it.each([
    [{ client_id: 'administration' }, 'The parameter token is missing.'],
    [{ token: '', client_id: 'administration' }, 'The parameter token is missing.'],
    [{ token: 't' }, 'The parameter client_id is missing.'],
    [{ token: ['a', 'b'], client_id: 'administration' }, 'The parameter token is repeated.'],
    [
      { token: 't', token_type_hint: 5, client_id: 'administration' },
      'The parameter token_type_hint must be a string.',
    ],
  ])('refuses %j as invalid_request', (body, description) => {
    expect(revocationFailure(body)).toMatchObject({ error: 'invalid_request', status: 400, description });
  });
});
