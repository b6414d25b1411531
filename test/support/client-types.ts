import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

export const OPENAPI_FILE = join(process.cwd(), 'openapi.json');
/**
 * The types a client generates from openapi.json, committed where the administration UI uses them (the
 * generated-clients suite checks they are what openapi.json gives).
 */
export const CLIENT_TYPES_FILE = join(process.cwd(), 'admin', 'src', 'api', 'openapi.d.ts');

/** openapi-typescript's types for an OpenAPI document; binary parts and bodies are Blobs, as in a browser. */
export async function generateClientTypes(document: unknown): Promise<string> {
  const blob = ts.factory.createTypeReferenceNode('Blob');
  // A copy: openapi-typescript writes into the document it is given (e.g. the enums of discriminator properties).
  const ast = await openapiTS(structuredClone(document) as Parameters<typeof openapiTS>[0], {
    transform: (schema) => (schema.format === 'binary' ? blob : undefined),
  });
  return astToString(ast);
}

/** Writes openapi.json and the client types generated from it (UPDATE_OPENAPI=1 runs of the platform suite). */
export async function writeOpenApiFiles(document: unknown): Promise<void> {
  await writeFile(OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
  await writeFile(CLIENT_TYPES_FILE, await generateClientTypes(document));
}

export async function committedOpenApi(): Promise<unknown> {
  return JSON.parse(await readFile(OPENAPI_FILE, 'utf8')) as unknown;
}
