import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createIntegration } from './support/admin-api.js';
import { CLIENT_TYPES_FILE, committedOpenApi } from './support/client-types.js';
import { PDF, PNG } from './support/fixtures.js';
import {
  castsIn,
  generateClients,
  PROGRAMS,
  PROGRAMS_DIR,
  typeErrors,
  type Program,
} from './support/generated-clients.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface FileRecord {
  id: number;
  field: string;
  mime_type: string;
  sort_order: number;
}

/** What each program in test/generated-clients/ exports (the same shape for every client). */
interface FlowModule {
  readmeFlow(
    baseUrl: string,
    credentials: { clientId: string; clientSecret: string },
    images: [Blob, Blob],
  ): Promise<{
    productId: number;
    uploaded: FileRecord[];
    cover: FileRecord | null;
    gallery: FileRecord[];
    download: Blob;
  }>;
}

type Json = Record<string, unknown>;

/** The object at `path` in a JSON document, to change in place. */
const at = (document: unknown, ...path: string[]): Json =>
  path.reduce<unknown>((node, key) => (node as Json)[key], document) as Json;

const COVER = '/files/product/{attachmentId}/cover';
const GALLERY = '/files/product/{attachmentId}/gallery';

/**
 * The document with one point of the contract undone, and the program whose type check must then fail in its own
 * code: the check would let that regression through otherwise.
 */
const REGRESSIONS: Array<[what: string, program: Program, undo: (document: unknown) => void]> = [
  [
    'the token request as one object with every parameter optional',
    'openapi-fetch-flow.ts',
    (document) => {
      const schemas = at(document, 'components', 'schemas');
      const grants = ['ClientCredentialsTokenRequest', 'PasswordTokenRequest', 'RefreshTokenRequest'];
      const properties: Json = Object.assign({}, ...grants.map((name) => at(schemas, name, 'properties')));
      properties.grant_type = { type: 'string', enum: ['client_credentials', 'password', 'refresh_token'] };
      properties.client_id = { type: 'string' };
      schemas.TokenRequest = { type: 'object', required: ['grant_type'], properties };
    },
  ],
  [
    'the upload part as a string',
    'hey-api-flow.ts',
    (document) => {
      const body = at(document, 'paths', COVER, 'post', 'requestBody', 'content', 'multipart/form-data', 'schema');
      at(body, 'properties').file = { type: 'string' };
    },
  ],
  [
    'a single field answering one record or an array',
    'openapi-fetch-flow.ts',
    (document) => {
      at(document, 'paths', COVER, 'post', 'responses')['201'] = at(
        document,
        'paths',
        GALLERY,
        'post',
        'responses',
        '201',
      );
    },
  ],
  [
    'the download as a string',
    'hey-api-flow.ts',
    (document) => {
      at(document, 'paths', '/files/{id}/content', 'get', 'responses', '200', 'content', '*/*').schema = {
        type: 'string',
      };
    },
  ],
];

describe('Clients generated from the committed openapi.json (openapi-typescript + openapi-fetch, hey-api)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await generateClients(await committedOpenApi());
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('openapi-typescript gives the types committed for the administration UI, a null file `| (null)`', async () => {
    const generated = await readFile(join(dir, 'generated', 'openapi-typescript.ts'), 'utf8');
    expect(generated).toBe(await readFile(CLIENT_TYPES_FILE, 'utf8'));
    expect(generated).toContain('cover: components["schemas"]["FileRecord"] | (null);');
  });

  it.each(PROGRAMS)(
    '%s: the README flow, without a cast, type-checks with --strict --noUncheckedIndexedAccess',
    async (program) => {
      expect(castsIn(await readFile(join(PROGRAMS_DIR, program), 'utf8'))).toEqual([]);
      expect(typeErrors(dir, program)).toEqual([]);
    },
  );

  it.each(REGRESSIONS)('fails on a document with %s (%s)', async (_what, program, undo) => {
    const document = structuredClone(await committedOpenApi());
    undo(document);
    const regressed = await generateClients(document);
    try {
      const errors = typeErrors(regressed, program);
      expect(errors).toContainEqual(expect.stringMatching(new RegExp(`^${program}:`)));
    } finally {
      await rm(regressed, { recursive: true, force: true });
    }
  });

  describe('run against the service', () => {
    let t: TestApp;
    const png = new Blob([new Uint8Array(PNG)], { type: 'image/png' });
    const pdf = new Blob([new Uint8Array(PDF)], { type: 'application/pdf' });

    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close({ destroy: true }));

    it.each(PROGRAMS)('%s: token, product, cover, gallery, the product read back, the download', async (program) => {
      const integration = await createIntegration(t, ['product:read', 'product:write'], program);
      const flow: FlowModule = await import(pathToFileURL(join(dir, program)).href);
      const credentials = { clientId: integration.access_key_id, clientSecret: integration.secret_access_key };
      const result = await flow.readmeFlow(t.url, credentials, [png, pdf]);

      expect(result.uploaded.map((record) => record.field)).toEqual(['cover', 'gallery', 'gallery']);
      const [cover, ...gallery] = result.uploaded;
      expect(result.cover).toMatchObject({ id: cover.id, attachment_id: result.productId, mime_type: 'image/png' });
      expect(result.gallery).toMatchObject(gallery.map((record, index) => ({ id: record.id, sort_order: index })));
      expect(result.gallery.map((record) => record.mime_type)).toEqual(['image/png', 'application/pdf']);
      expect(Buffer.from(await result.download.arrayBuffer())).toEqual(PNG);
    });
  });
});
