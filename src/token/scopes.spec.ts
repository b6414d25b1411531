import { OAuthError } from '../common/errors/oauth-error.js';
import { grantedScope, grants, isPermission } from './scopes.js';

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
});
