import { TokenAdminErrorCode } from '../../token-admin.errors.js';
import { actorWith, adminServices } from '../../testing/admin-services.js';
import { ACCESS_KEY_PATTERN } from '../../credentials/client-secrets.js';

describe('IntegrationsService', () => {
  let s: Awaited<ReturnType<typeof adminServices>>;
  beforeEach(async () => {
    s = await adminServices();
    await s.roles.create({ name: 'reader', permissions: ['product:read'] }, actorWith('*'));
  });

  const actor = actorWith('integration:write', 'product:read');

  it('gives an integration only a role whose every permission the actor holds', async () => {
    await expect(s.integrations.create({ label: 'ERP', role: 'admin' }, actor)).rejects.toMatchObject({
      code: TokenAdminErrorCode.PrivilegeEscalation,
    });
    const { integration, secret } = await s.integrations.create({ label: 'ERP', role: 'reader' }, actor);
    expect(integration.accessKeyId).toMatch(ACCESS_KEY_PATTERN);
    expect(secret).toMatch(/^ffsk_/);
    expect(integration.secretHash).not.toContain(secret);
    await expect(s.integrations.update(integration.id, { role: 'admin' }, actor)).rejects.toThrow(/missing: \*/);
  });

  it('changes only integrations whose every permission the actor holds', async () => {
    const { integration } = await s.integrations.create({ label: 'ops', role: 'admin' }, actorWith('*'));
    await expect(s.integrations.update(integration.id, { label: 'x' }, actor)).rejects.toThrow(
      /To change the integration "ops"/,
    );
    await expect(s.integrations.rotateSecret(integration.id, actor)).rejects.toThrow(/To rotate the secret of/);
    await expect(s.integrations.remove(integration.id, actor)).rejects.toThrow(/To delete the integration "ops"/);
  });

  it('disabling or moving to another role ends live tokens; enabling does not revive them', async () => {
    const { integration } = await s.integrations.create({ label: 'ERP', role: 'reader' }, actor);
    const sub = `integration:${integration.id}`;
    await expect(s.status.accepts({ sub, ver: 0 })).resolves.toBe(true);
    await s.integrations.update(integration.id, { active: false }, actor);
    await expect(s.status.accepts({ sub, ver: 0 })).resolves.toBe(false);
    const enabled = await s.integrations.update(integration.id, { active: true }, actor);
    expect(enabled.tokenVersion).toBe(1);
    await expect(s.status.accepts({ sub, ver: 0 })).resolves.toBe(false);
    await expect(s.status.accepts({ sub, ver: 1 })).resolves.toBe(true);
  });

  it('keeps the previous secret working for the grace period after a rotation, or until expired by hand', async () => {
    const { integration, secret: first } = await s.integrations.create({ label: 'ERP', role: 'reader' }, actor);
    const { integration: rotated, secret: second } = await s.integrations.rotateSecret(integration.id, actor);
    expect(s.integrations.secretMatches(rotated, first)).toBe(true);
    expect(s.integrations.secretMatches(rotated, second)).toBe(true);
    s.clock.advance(3_600_000);
    expect(s.integrations.secretMatches(rotated, first)).toBe(false);
    expect(s.integrations.secretMatches(rotated, second)).toBe(true);

    const { integration: again, secret: third } = await s.integrations.rotateSecret(integration.id, actor);
    const expired = await s.integrations.expirePreviousSecret(again.id, actor);
    expect(s.integrations.secretMatches(expired, second)).toBe(false);
    expect(s.integrations.secretMatches(expired, third)).toBe(true);
  });

  it('refuses an expired integration and its live tokens; clearing expires_at does not revive old tokens', async () => {
    const expiresAt = new Date(s.clock.nowMs() + 60_000).toISOString();
    const { integration } = await s.integrations.create(
      { label: 'ERP', role: 'reader', expires_at: expiresAt, owner: 'ops' },
      actor,
    );
    expect(integration.expiresAt).toBe(Date.parse(expiresAt));
    expect(integration.owner).toBe('ops');
    const sub = `integration:${integration.id}`;
    expect(s.integrations.expired(integration)).toBe(false);
    await expect(s.status.accepts({ sub, ver: 0 })).resolves.toBe(true);

    s.clock.advance(3_600_000);
    s.status.invalidateAll();
    expect(s.integrations.expired(integration)).toBe(true);
    await expect(s.status.accepts({ sub, ver: 0 })).resolves.toBe(false);

    const revived = await s.integrations.update(integration.id, { expires_at: null, owner: null }, actor);
    expect(revived).toMatchObject({ expiresAt: null, owner: null, tokenVersion: 1 });
    expect(s.integrations.expired(revived)).toBe(false);
    await expect(s.status.accepts({ sub, ver: 0 })).resolves.toBe(false);
    await expect(s.status.accepts({ sub, ver: 1 })).resolves.toBe(true);
  });

  it('refuses an expires_at that is not in the future, and applies the escalation rule to lifecycle changes', async () => {
    const past = new Date(s.clock.nowMs()).toISOString();
    await expect(
      s.integrations.create({ label: 'ERP', role: 'reader', expires_at: past }, actor),
    ).rejects.toMatchObject({ status: 400, code: 'validation-failed' });
    const { integration } = await s.integrations.create({ label: 'ERP', role: 'reader' }, actor);
    await expect(s.integrations.update(integration.id, { expires_at: past }, actor)).rejects.toMatchObject({
      status: 400,
    });

    const { integration: ops } = await s.integrations.create({ label: 'ops', role: 'admin' }, actorWith('*'));
    const later = new Date(s.clock.nowMs() + 60_000).toISOString();
    await expect(s.integrations.update(ops.id, { expires_at: later }, actor)).rejects.toMatchObject({
      code: TokenAdminErrorCode.PrivilegeEscalation,
    });
    await expect(s.integrations.update(ops.id, { owner: 'me' }, actor)).rejects.toMatchObject({
      code: TokenAdminErrorCode.PrivilegeEscalation,
    });
  });

  it('tells whether a rotated-out secret is still in its grace period', async () => {
    const { integration } = await s.integrations.create({ label: 'ERP', role: 'reader' }, actor);
    expect(s.integrations.previousSecretActive(integration)).toBe(false);
    const { integration: rotated } = await s.integrations.rotateSecret(integration.id, actor);
    expect(s.integrations.previousSecretActive(rotated)).toBe(true);
    s.clock.advance(3_600_000);
    expect(s.integrations.previousSecretActive(rotated)).toBe(false);
  });

  it('answers 404 for an integration that does not exist', async () => {
    const notFound = {
      status: 404,
      code: TokenAdminErrorCode.IntegrationNotFound,
      message: 'Integration 42 does not exist.',
    };
    await expect(s.integrations.get(42)).rejects.toMatchObject(notFound);
    await expect(s.integrations.remove(42, actorWith('*'))).rejects.toMatchObject(notFound);
  });
});
