/**
 * Benchmark peer (not a test): the floor for a streamed upload, a raw node:http server that pipes each request body to
 * a file in a temporary directory and answers 201 with the byte count. Listens on 127.0.0.1:$PORT.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = await mkdtemp(join(tmpdir(), 'bench-raw-upload-'));
let uploads = 0;

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    return;
  }
  const file = join(dir, `upload-${uploads++}`);
  pipeline(req, createWriteStream(file)).then(
    async () => {
      const { size } = await stat(file);
      res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ size }));
      await rm(file, { force: true });
    },
    (error: unknown) => res.writeHead(500).end(String(error)),
  );
});

const stop = () => {
  server.close();
  void rm(dir, { recursive: true, force: true }).then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
server.listen(Number(process.env.PORT), '127.0.0.1');
