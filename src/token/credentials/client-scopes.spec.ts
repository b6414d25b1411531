import { consentCovers, defaultScopesOf, grantableScope, ScopeRefused } from './client-scopes.js';

describe('grantableScope: ceiling ∩ requested ∩ held', () => {
  const shop = { scopes: ['product:read', 'product:write', 'article:read'], defaultScopes: ['product:read'] };

  it('gives a request without scope the default scope, narrowed to what the user holds, never everything', () => {
    expect(grantableScope('', shop, ['*'])).toEqual(['product:read']);
    expect(grantableScope('', { ...shop, defaultScopes: null }, ['*'])).toEqual(shop.scopes);
    expect(grantableScope('', { ...shop, defaultScopes: null }, ['article:read', 'user:write'])).toEqual([
      'article:read',
    ]);
    expect(grantableScope('', { scopes: ['*'], defaultScopes: null }, ['audit:read'])).toEqual(['audit:read']);
  });

  it('refuses what the ceiling does not allow, even to a holder of *', () => {
    expect(() => grantableScope('user:write', shop, ['*'])).toThrow(ScopeRefused);
    expect(() => grantableScope('*', shop, ['*'])).toThrow('Not allowed to this client: *');
    expect(() => grantableScope('product:write article:read', shop, ['product:write'])).toThrow(
      'Not granted by your role: article:read',
    );
    expect(grantableScope('product:write', shop, ['*'])).toEqual(['product:write']);
  });

  it('refuses a request that would grant nothing', () => {
    expect(() => grantableScope('', shop, ['article:read'])).toThrow(ScopeRefused);
    expect(() => grantableScope('', { scopes: [], defaultScopes: null }, ['*'])).toThrow(ScopeRefused);
  });

  it('keeps a default scope inside the ceiling', () => {
    expect(defaultScopesOf({ scopes: ['product:read'], defaultScopes: ['product:read', 'user:write'] })).toEqual([
      'product:read',
    ]);
  });

  it('skips consent only when what was allowed covers what is asked', () => {
    expect(consentCovers(['product:read', 'article:read'], ['product:read'])).toBe(true);
    expect(consentCovers(['product:read'], ['product:read', 'product:write'])).toBe(false);
    expect(consentCovers(['product:read'], ['*'])).toBe(false);
    expect(consentCovers(['*'], ['product:read'])).toBe(true);
  });
});
