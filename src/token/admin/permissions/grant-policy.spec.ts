import { TokenAdminError, TokenAdminErrorCode } from '../../token-admin.errors.js';
import { actorWith } from '../../testing/admin-services.js';
import { assertHolds } from './grant-policy.js';

describe('assertHolds (the escalation rule)', () => {
  it('allows what the actor holds, and anything to a holder of *', () => {
    expect(() => assertHolds(actorWith('product:read', 'role:write'), ['product:read'], 'act')).not.toThrow();
    expect(() => assertHolds(actorWith('*'), ['*', 'webhook:write'], 'act')).not.toThrow();
  });

  it('refuses with 403, naming each missing permission once', () => {
    let refusal: unknown;
    try {
      assertHolds(actorWith('product:read'), ['product:read', 'product:write', 'product:write', '*'], 'create X');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(TokenAdminError);
    expect(refusal).toMatchObject({
      status: 403,
      code: TokenAdminErrorCode.PrivilegeEscalation,
      message: 'To create X you must hold every permission involved; missing: product:write, *.',
      extensions: { missing_permissions: ['product:write', '*'] },
    });
  });
});
