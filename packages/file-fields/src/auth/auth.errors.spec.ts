import { bearerChallenge, InsufficientScopeError, InvalidTokenError } from './auth.errors.js';

/** What Node's http module refuses in a header value (it would answer 500 instead). */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

describe('Bearer challenges', () => {
  it('names a well-formed permission as the scope', () => {
    expect(new InsufficientScopeError('product:write').headers['WWW-Authenticate']).toBe(
      'Bearer realm="file-fields", error="insufficient_scope", scope="product:write"',
    );
  });

  it.each([['a"b:write'], ['a\r\nSet-Cookie: x=1:write'], ['\u{1F642}:write'], ['a\\b:write'], ['a b:write'], ['']])(
    'leaves out a scope token outside RFC 6750 (%j), keeping the header sendable',
    (permission) => {
      const header = new InsufficientScopeError(permission).headers['WWW-Authenticate'];
      expect(header).toBe('Bearer realm="file-fields", error="insufficient_scope"');
      expect(header).not.toMatch(UNSENDABLE);
    },
  );

  it('keeps the valid tokens of several', () => {
    expect(bearerChallenge('insufficient_scope', { scopes: ['a:read', 'b"c', 'd:write'] })).toBe(
      'Bearer realm="file-fields", error="insufficient_scope", scope="a:read d:write"',
    );
  });

  it('keeps only allowed characters in an error description', () => {
    const header = new InvalidTokenError('Bad "token"\r\n\u00e9\\ here.').headers['WWW-Authenticate'];
    expect(header).toBe(`Bearer realm="file-fields", error="invalid_token", error_description="Bad 'token' here."`);
  });
});
