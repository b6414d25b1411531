import { OAuthError } from './oauth-error.js';
import { grantedScope, grants, intersectPermissions, isPermission, missingPermissions } from './scopes.js';

describe('scopes', () => {
  it('recognises permissions', () => {
    expect(isPermission('product:read')).toBe(true);
    expect(isPermission('*')).toBe(true);
    expect(isPermission('product:delete')).toBe(false);
    expect(isPermission('Product:read')).toBe(false);
  });

  it('grants by exact permission or *', () => {
    expect(grants(['product:read'], 'product:read')).toBe(true);
    expect(grants(['product:read'], 'product:write')).toBe(false);
    expect(grants(['*'], 'webhook:write')).toBe(true);
  });

  it('defaults to everything the role grants', () => {
    expect(grantedScope(undefined, ['product:read', 'article:read'])).toBe('product:read article:read');
    expect(grantedScope('  ', ['*'])).toBe('*');
  });

  it('narrows to what was asked, deduplicated, and refuses what the role lacks', () => {
    expect(grantedScope('product:read product:read', ['*'])).toBe('product:read');
    expect(() => grantedScope('product:write', ['product:read'])).toThrow(OAuthError);
    expect(() => grantedScope('openid', ['*'])).toThrow(/openid/);
  });

  it('names what a principal lacks to grant a set of permissions; only * covers *', () => {
    expect(missingPermissions(['*'], ['*', 'product:write'])).toEqual([]);
    expect(missingPermissions(['role:write', 'role:read'], ['*'])).toEqual(['*']);
    expect(missingPermissions(['product:read'], ['product:read', 'product:write', 'product:write'])).toEqual([
      'product:write',
    ]);
    expect(missingPermissions([], [])).toEqual([]);
  });

  it('intersects permission sets, * standing for everything', () => {
    expect(intersectPermissions(['*'], ['product:read'])).toEqual(['product:read']);
    expect(intersectPermissions(['product:read', 'article:read'], ['*'])).toEqual(['product:read', 'article:read']);
    expect(intersectPermissions(['product:read', 'article:read'], ['article:read'])).toEqual(['article:read']);
    expect(intersectPermissions(['*'], ['*'])).toEqual(['*']);
  });
});
