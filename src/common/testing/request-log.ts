import express, { type Express } from 'express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadAppConfig } from '../../config/environment.js';
import { createLogger } from '../logging/log-lines.js';
import { RequestLog } from '../logging/request-log.js';

/**
 * Serves the routes `route` adds behind the service's request log at `level` (JSON), on a free local port, and
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
  const logger = createLogger(loadAppConfig({ LOG_LEVEL: level, LOG_FORMAT: 'json' }), false, sink);
  const requestLog = new RequestLog(logger, true);
  app.use((req, res, next) => {
    requestLog.begin(req, res);
    requestLog.within(req, next);
  });
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
