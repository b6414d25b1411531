/**
 * Writes the tables of docs/configuration.md from the settings classes (src/configuration-docs.ts), compiled first by
 * `npm run docs:config` into dist-test/docs-config. The prose around the tables is kept as it is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const compiled = join(root, 'dist-test', 'docs-config', 'src', 'configuration-docs.js');
const { configurationDocument } = await import(pathToFileURL(compiled).href);
const path = join(root, 'docs', 'configuration.md');
const current = readFileSync(path, 'utf8');
const next = configurationDocument(current);
if (next === current) {
  process.stdout.write('docs/configuration.md is up to date\n');
} else {
  writeFileSync(path, next);
  process.stdout.write('docs/configuration.md: tables written anew\n');
}
