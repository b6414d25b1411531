import { copyFile, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import ts from 'typescript';
import { generateClientTypes } from './client-types.js';

/** The README's flow written with each generated client (test/generated-clients/, outside the project's tsconfig). */
export const PROGRAMS_DIR = join(process.cwd(), 'test', 'generated-clients');
export const PROGRAMS = ['openapi-fetch-flow.ts', 'hey-api-flow.ts'] as const;
export type Program = (typeof PROGRAMS)[number];

/**
 * Generates both clients from `document` into a new temporary directory, next to copies of the programs, as an
 * application would hold them: `generated/openapi-typescript.ts` (openapi-typescript, used through openapi-fetch) and
 * `generated/hey-api/` (@hey-api/openapi-ts: its fetch client, types and SDK). The directory resolves packages from
 * the project's node_modules.
 */
export async function generateClients(document: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'generated-clients-'));
  await symlink(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await mkdir(join(dir, 'generated'));
  await writeFile(join(dir, 'openapi.json'), JSON.stringify(document));
  await writeFile(join(dir, 'generated', 'openapi-typescript.ts'), await generateClientTypes(document));
  await createClient({
    input: join(dir, 'openapi.json'),
    output: join(dir, 'generated', 'hey-api'),
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent', path: dir },
  });
  for (const program of PROGRAMS) await copyFile(join(PROGRAMS_DIR, program), join(dir, program));
  return dir;
}

/** What `tsc --strict --noUncheckedIndexedAccess` says about a program and the generated code it uses. */
export function typeErrors(dir: string, program: Program): string[] {
  const compiled = ts.createProgram([join(dir, program)], {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(compiled).map((diagnostic) => {
    const file = diagnostic.file;
    const at = file
      ? `${relative(dir, file.fileName)}:${file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${at}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

/** Every cast of a program (`x as T`, `<T>x`, `x!`), with its line: a generated client should need none. */
export function castsIn(source: string): string[] {
  const file = ts.createSourceFile('program.ts', source, ts.ScriptTarget.ES2023, true);
  const casts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      casts.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return casts;
}
