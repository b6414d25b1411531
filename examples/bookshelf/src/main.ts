import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createBookshelf } from './bookshelf.js';

const dataDir = process.env.DATA_DIR ?? 'data';
mkdirSync(dataDir, { recursive: true });
const signingKey = process.env.URL_SIGNING_KEY;
const app = await createBookshelf({
  dataDir,
  // An editor and a reader; set your own with BOOKSHELF_KEYS='{"<key>":["book:read"]}'.
  apiKeys: JSON.parse(
    process.env.BOOKSHELF_KEYS ??
      '{"editor-key":["author:read","author:write","book:read","book:write"],"reader-key":["author:read","book:read"]}',
  ) as Record<string, string[]>,
  urlSigningKey: signingKey ? Buffer.from(signingKey, 'base64') : randomBytes(32),
});
await app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
console.log(`Bookshelf on ${await app.getUrl()}`);
