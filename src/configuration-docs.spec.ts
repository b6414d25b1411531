import { readFileSync } from 'node:fs';
import { configurationDocument, SETTINGS_GROUPS } from './configuration-docs.js';
import { renderSettings } from './config/settings-table.js';

const DOCUMENT = new URL('../docs/configuration.md', import.meta.url);

describe('docs/configuration.md', () => {
  it('has the tables the settings classes generate', () => {
    const committed = readFileSync(DOCUMENT, 'utf8');
    if (configurationDocument(committed) !== committed) {
      throw new Error('docs/configuration.md differs from the settings classes: run `npm run docs:config`');
    }
  });

  it('lists every variable once, the one long undocumented among them', () => {
    const names = SETTINGS_GROUPS.flatMap(({ title, schema }) =>
      [...renderSettings([{ title, schema }]).matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1]),
    );
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['WEBHOOK_DELIVERY_RETENTION', 'OAUTH_ISSUER', 'ORPHAN_GRACE']));
  });
});
