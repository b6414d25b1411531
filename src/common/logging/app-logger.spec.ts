import express from 'express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { setImmediate as later } from 'node:timers/promises';
import { loadAppConfig } from '../../config/environment.js';
import { AppLogger } from './app-logger.js';
import { createLogger } from './log-lines.js';
import { RequestLog } from './request-log.js';

function sinkOf(lines: Record<string, unknown>[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').trim().split('\n')) lines.push(JSON.parse(line) as (typeof lines)[0]);
      done();
    },
  });
}

describe('AppLogger', () => {
  const lines: Record<string, unknown>[] = [];
  const pino = createLogger(loadAppConfig({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }), false, sinkOf(lines));
  const logger = new AppLogger(pino);
  beforeEach(() => lines.splice(0));

  it("writes Nest's calls as pino lines: the context, the fields or the error, the message", () => {
    logger.log('Listening', 'Process');
    logger.warn({ fileId: 4 }, 'Missing bytes', 'Files');
    logger.error(new Error('boom'), 'Errors');
    // Nest's exception handlers pass a stack in place of an error.
    logger.error('Failed', 'Error: x\n    at somewhere (file.js:1:1)', 'ExceptionsHandler');
    logger.debug('below the level', 'Process');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, context: 'Process', msg: 'Listening' }),
      expect.objectContaining({ level: 40, context: 'Files', fileId: 4, msg: 'Missing bytes' }),
      expect.objectContaining({ level: 50, context: 'Errors', err: expect.objectContaining({ message: 'boom' }) }),
      expect.objectContaining({
        level: 50,
        context: 'ExceptionsHandler',
        err: expect.objectContaining({ message: 'Failed', stack: expect.stringContaining('at somewhere') }),
      }),
    ]);
    for (const line of lines) expect(line).not.toHaveProperty('req');
  });

  it('names the request a line was written for, also after an await, and writes its one line once it is done', async () => {
    const requestLog = new RequestLog(pino);
    const app = express();
    app.use((req, res, next) => {
      requestLog.begin(req, res);
      requestLog.within(req, next);
    });
    app.get('/products', async (_req, res) => {
      await later();
      logger.warn({ fileId: 4 }, 'Missing bytes', 'Files');
      res.json({ ok: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/products?limit=5`, { headers: { 'X-Request-Id': 'trace-1' } });
      expect(res.headers.get('x-request-id')).toBe('trace-1');
      await res.arrayBuffer();
      await later();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const req = { id: 'trace-1', method: 'GET', url: '/products?limit=5' };
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, req, context: 'Files', fileId: 4, msg: 'Missing bytes' }),
      expect.objectContaining({ level: 30, req, res: { statusCode: 200 }, msg: expect.stringMatching(/^GET /) }),
    ]);
    logger.log('after the request', 'Process');
    expect(lines.at(-1)).not.toHaveProperty('req');
  });
});
