/**
 * What a REST client generated from the committed OpenAPI document does, written against the generated types only
 * (openapi-typescript's `paths`, used through openapi-fetch): if the document lacked a route, a parameter, a body or
 * a response property this needs, this file would not type-check (test/generated-client.e2e-spec.ts checks it).
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../admin/src/api/openapi.js';

type FileRecord = components['schemas']['FileRecord'];

export interface FlowResult {
  productId: number;
  cover: FileRecord | null;
  gallery: FileRecord[];
  coverBytes: number;
}

/** Fails with the answer's status and body when a call did not succeed. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) {
    throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

/**
 * As an integration: a token with client credentials, a product, a cover uploaded as multipart, the product read back
 * with its resolved file fields, and the cover's bytes downloaded.
 */
export async function integrationFlow(
  baseUrl: string,
  credentials: { clientId: string; clientSecret: string },
  image: Blob,
): Promise<FlowResult> {
  const api = createClient<paths>({ baseUrl });
  const token = ok(
    await api.POST('/api/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      },
    }),
    'token',
  );
  const headers = { Authorization: `${token.token_type} ${token.access_token}` };

  const created = ok(await api.POST('/products', { headers, body: { name: 'Made by a generated client' } }), 'create');
  const uploaded = ok(
    await api.POST('/files/{attachmentType}/{attachmentId}/{fieldName}', {
      params: { path: { attachmentType: 'product', attachmentId: created.id, fieldName: 'cover' } },
      headers,
      body: { file: [image] },
      // openapi-fetch sends JSON unless told otherwise: multipart is a FormData, as in a browser.
      bodySerializer: (body) => {
        const form = new FormData();
        for (const file of body.file) form.append('file', file, 'cover.png');
        return form;
      },
    }),
    'upload',
  );
  const record = Array.isArray(uploaded) ? uploaded[0] : uploaded;

  const product = ok(await api.GET('/products/{id}', { params: { path: { id: created.id } }, headers }), 'get');
  const cover = product.cover ?? null;
  const gallery = product.gallery ?? [];
  const content = await api.GET('/files/{id}/content', {
    params: { path: { id: record.id } },
    headers,
    parseAs: 'arrayBuffer',
  });
  const bytes = ok(content, 'download');
  return { productId: product.id, cover, gallery, coverBytes: bytes.byteLength };
}

/** As the administration interface: sign in with the password grant, create a role and an integration for it. */
export async function createIntegration(
  baseUrl: string,
  admin: { username: string; password: string },
  permissions: string[],
): Promise<{ clientId: string; clientSecret: string }> {
  const api = createClient<paths>({ baseUrl });
  const token = ok(
    await api.POST('/api/oauth/token', {
      body: { grant_type: 'password', client_id: 'administration', ...admin },
    }),
    'password grant',
  );
  const headers = { Authorization: `Bearer ${token.access_token}` };
  const role = ok(await api.POST('/api/roles', { headers, body: { name: 'generated-client', permissions } }), 'role');
  const integration = ok(
    await api.POST('/api/integrations', { headers, body: { label: 'Generated client', role: role.name } }),
    'integration',
  );
  if (!integration.secret_access_key) throw new Error('the integration came without its secret');
  return { clientId: integration.access_key_id, clientSecret: integration.secret_access_key };
}
