import { authorizeUrl, pkce, signInAt } from '../../test/support/authorization-code.js';
import { clientToken, type Api } from './api.js';

/** The catalog editor whose navigation the screenshots show; signed in through the sign-in page. */
export const EDITOR = { username: 'jonas.weber', password: 'editor-passphrase-for-screenshots' };

/** The registered applications' redirect URIs: the screenshots' browser never leaves for them. */
export const STOREFRONT_CALLBACK = 'https://shop.example/oauth/callback';
export const PARTNER_CALLBACK = 'https://partners.example/auth/callback';

/**
 * What the other steps use: the ERP integration's token, so that some changes are an integration's, and the registered
 * applications' client ids (the storefront is a connected application of the administrator and the editor; the
 * partner portal's consent page is shot).
 */
export interface Accounts {
  erpToken: string;
  storefrontId: string;
  partnerId: string;
}

/**
 * Roles, users, integrations and OAuth applications as a small shop would have them, created through the API (each
 * change lands in the audit log). One integration is used (its last use shows), one rotated, one deactivated.
 */
export async function seedAccounts(admin: Api, adminPassword: string): Promise<Accounts> {
  await admin.call('POST', '/api/roles', {
    name: 'catalog-editor',
    permissions: ['product:read', 'product:write', 'article:read', 'article:write'],
  });
  await admin.call('POST', '/api/roles', { name: 'catalog-reader', permissions: ['product:read', 'article:read'] });
  const support = await admin.call<{ id: number }>('POST', '/api/roles', {
    name: 'support',
    permissions: ['product:read', 'user:read'],
  });
  // A second change of one role, for the audit log.
  await admin.call('PATCH', `/api/roles/${support.id}`, { permissions: ['product:read', 'user:read', 'audit:read'] });

  await admin.call('POST', '/api/users', {
    username: 'maria.keller',
    password: 'administrator-passphrase-1',
    role: 'admin',
  });
  await admin.call('POST', '/api/users', { ...EDITOR, role: 'catalog-editor' });

  type Created = { id: number; access_key_id: string; secret_access_key: string };
  const shop = await admin.call<Created>('POST', '/api/integrations', {
    label: 'Shop front',
    role: 'catalog-reader',
    owner: 'web-team@example.com',
  });
  const erp = await admin.call<Created>('POST', '/api/integrations', {
    label: 'ERP sync',
    role: 'catalog-editor',
    owner: 'erp@example.com',
  });
  const search = await admin.call<Created>('POST', '/api/integrations', {
    label: 'Search indexer',
    role: 'catalog-reader',
  });
  await clientToken(admin.url, shop.access_key_id, shop.secret_access_key);
  const rotated = await admin.call<Created>('POST', `/api/integrations/${erp.id}/rotate-secret`);
  const erpToken = await clientToken(admin.url, erp.access_key_id, rotated.secret_access_key);
  await admin.call('PATCH', `/api/integrations/${search.id}`, { active: false });

  type Client = { client_id: string };
  const storefront = await admin.call<Client>('POST', '/api/oauth/clients', {
    name: 'Storefront',
    redirect_uris: [STOREFRONT_CALLBACK],
    public: true,
    scopes: ['product:read', 'article:read'],
  });
  const partner = await admin.call<Client>('POST', '/api/oauth/clients', {
    name: 'Partner portal',
    redirect_uris: [PARTNER_CALLBACK, 'http://127.0.0.1:8080/callback'],
    public: false,
    scopes: ['product:read', 'product:write'],
    default_scopes: ['product:read'],
  });
  // Connected applications: a consent given once with Allow, as a person does on the consent page.
  await allowOnce(admin.url, storefront.client_id, 'admin', adminPassword);
  await allowOnce(admin.url, storefront.client_id, EDITOR.username, EDITOR.password);
  return { erpToken, storefrontId: storefront.client_id, partnerId: partner.client_id };
}

/** Signs in at the storefront through the sign-in and consent pages, pressing Allow: the consent is remembered. */
async function allowOnce(url: string, clientId: string, username: string, password: string): Promise<void> {
  const { challenge } = await pkce();
  const target = authorizeUrl(url, {
    client_id: clientId,
    redirect_uri: STOREFRONT_CALLBACK,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'screenshots',
  });
  const back = await signInAt(url, target, username, password);
  if (!back.searchParams.get('code')) throw new Error(`No code came back from the consent page: ${back.href}`);
}
