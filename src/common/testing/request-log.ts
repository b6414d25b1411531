import express, { type Express } from 'express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp, type Options } from 'pino-http';
import { loadAppConfig } from '../../config/environment.js';
import { loggerParams } from '../logging.js';

/**
 * Serves the routes `route` adds behind the service's request logger at `level` (JSON), on a free local port, and
 * answers the lines it logged while `send` ran against the server's base URL.
 */
export async function requestLogOf(
  level: string,
  route: (app: Express) => void,
  send: (base: string) => Promise<unknown>,
): Promise<string[]> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = express();
  const params = loggerParams(loadAppConfig({ LOG_LEVEL: level, LOG_FORMAT: 'json' }), false);
  app.use(pinoHttp(params.pinoHttp as Options, sink));
  route(app);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return lines;
}
