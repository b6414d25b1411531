import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { CLIENT_TYPES_FILE, committedOpenApi, generateClientTypes } from './support/client-types.js';
import { PNG } from './support/fixtures.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';
import { createIntegration, integrationFlow } from './generated-client/flow.js';

const CLIENT_DIR = join(process.cwd(), 'test', 'generated-client');

/** What TypeScript (strict, as the project) says about the client program and the generated types. */
function typeErrors(): string[] {
  const program = ts.createProgram([join(CLIENT_DIR, 'flow.ts')], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('A client generated from the committed OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('is generated as committed (regenerate with UPDATE_OPENAPI=1 npm run test:e2e)', async () => {
    const generated = await generateClientTypes(await committedOpenApi());
    expect(generated).toBe(await readFile(CLIENT_TYPES_FILE, 'utf8'));
    expect(generated).toContain('cover: components["schemas"]["FileRecord"] | (never | null);');
  });

  it('type-checks a program that uses only it', () => {
    expect(typeErrors()).toEqual([]);
  });

  it('gets a token, creates a product, uploads a cover and reads the resolved fields with their types', async () => {
    const credentials = await createIntegration(t.url, { username: 'admin', password: ADMIN_PASSWORD }, [
      'product:read',
      'product:write',
    ]);
    const image = new Blob([new Uint8Array(PNG)], { type: 'image/png' });
    const result = await integrationFlow(t.url, credentials, image);
    expect(result.cover).toMatchObject({
      attachment_type: 'product',
      attachment_id: result.productId,
      field: 'cover',
      mime_type: 'image/png',
      size: PNG.length,
    });
    expect(result.cover?.path).toEqual(expect.any(String));
    expect(result.gallery).toEqual([]);
    expect(result.coverBytes).toBe(PNG.length);
  });
});
