import type { Express } from 'express';
import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { loadAppConfig } from '../../config/environment.js';
import { requestLogOf } from '../testing/request-log.js';
import { symbols } from 'pino';
import { createLogger, redactUrl, requestLine, requestLineJson } from './log-lines.js';

const SECRETS = 'access_token=S1&refresh_token=S2&code=S3&client_secret=S4&password=S5';

describe('request logging', () => {
  it('replaces credential parameters in URLs, whatever their case', () => {
    expect(redactUrl(`/products?${SECRETS}&limit=5`)).toBe(
      '/products?access_token=[REDACTED]&refresh_token=[REDACTED]&code=[REDACTED]&client_secret=[REDACTED]' +
        '&password=[REDACTED]&limit=5',
    );
    expect(redactUrl('/x?ACCESS_TOKEN=abc#frag')).toBe('/x?ACCESS_TOKEN=[REDACTED]#frag');
    expect(redactUrl('/x?barcode=1&my_access_token=2')).toBe('/x?barcode=1&my_access_token=2');
    expect(redactUrl('/api/oauth/revoke?token=rt&token_type_hint=refresh_token')).toBe(
      '/api/oauth/revoke?token=[REDACTED]&token_type_hint=refresh_token',
    );
    expect(redactUrl('/files/1/signed?expires=1795440000&signature=abc-_')).toBe(
      '/files/1/signed?expires=1795440000&signature=[REDACTED]',
    );
  });

  /** Serves GET /products through the request logger at `level`; returns what it logged while `send` ran. */
  async function logOf(level: string, send: (url: string) => Promise<unknown>): Promise<string> {
    const route = (app: Express) =>
      app.get('/products', (req, res) => {
        // As the access guard leaves it for a token it accepted.
        if (req.headers.authorization === 'Bearer S6') req.user = { subject: 'user:7', clientId: 'c', scopes: [] };
        res.setHeader('Set-Cookie', 'sid=S8').setHeader('X-Upstream-Token', 'S5').json({ ok: true });
      });
    return (await requestLogOf(level, route, send)).join('');
  }

  const withCredentials = (base: string) =>
    fetch(`${base}/products?${SECRETS}&limit=5`, {
      headers: {
        Authorization: 'Bearer S6',
        Cookie: 'session=S7',
        'Proxy-Authorization': 'Basic S9',
        'X-Api-Key': 'S4',
        'User-Agent': 'log-test/1.0',
      },
    }).then((res) => expect(res.status).toBe(200));

  it('writes one short line per request: method, path, status, duration, request id, principal; no header', async () => {
    const log = await logOf('info', withCredentials);
    const lines = log.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line.msg).toMatch(/^GET \/products\?access_token=\[REDACTED\]&.*&limit=5 200 \d+ms$/);
    expect(line).toMatchObject({
      level: 30,
      req: { method: 'GET', url: expect.stringContaining('limit=5') as unknown },
      res: { statusCode: 200 },
      responseTime: expect.any(Number) as unknown,
      principal: 'user:7',
    });
    expect((line.req as { id?: unknown }).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(line.req as object).sort()).toEqual(['id', 'method', 'url']);
    expect(Object.keys(line.res as object)).toEqual(['statusCode']);
    expect(log).not.toMatch(/headers|user-agent|remoteAddress/i);
    expect(log).not.toMatch(/S[1-9]/);
  });

  it('adds the listed headers at debug level, never a credential sent in the query string or a header', async () => {
    const log = await logOf('debug', withCredentials);
    expect(log).toContain('limit=5');
    expect(log).toContain('[REDACTED]');
    // Listed headers are shown, any other is not: a secret in a header the service does not know of stays out.
    expect(log).toContain('"user-agent":"log-test/1.0"');
    expect(log).toContain('"content-type":"application/json; charset=utf-8"');
    expect(log).not.toMatch(/x-api-key|x-upstream-token/i);
    expect(log).not.toMatch(/S[1-9]/);
  });

  it('names no principal when the request had none', async () => {
    const log = await logOf('info', (base) => fetch(`${base}/products`));
    expect(JSON.parse(log)).not.toHaveProperty('principal');
    expect(JSON.parse(log)).toMatchObject({ msg: expect.stringMatching(/^GET \/products 200 \d+ms$/) as unknown });
  });

  it('says when a request got no answer, or an incomplete one', () => {
    const req = { method: 'GET', originalUrl: '/files/1/content?signature=abc' };
    expect(requestLine(req, { statusCode: 200, headersSent: true, writableFinished: true }, 5)).toBe(
      'GET /files/1/content?signature=[REDACTED] 200 5ms',
    );
    expect(requestLine(req, { statusCode: 200, headersSent: true, writableFinished: false }, 5)).toBe(
      'GET /files/1/content?signature=[REDACTED] 200 aborted 5ms',
    );
    expect(requestLine(req, { statusCode: 200, headersSent: false, writableFinished: false }, 5)).toBe(
      'GET /files/1/content?signature=[REDACTED] no response 5ms',
    );
  });

  it("writes a failed query's error without the values it was given (TypeORM's parameters)", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger(loadAppConfig({ LOG_LEVEL: 'info' }), false, sink);
    const driverError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    const error = new QueryFailedError('INSERT INTO "webhooks"("secret") VALUES ($1)', ['P1-sealed'], driverError);
    logger.error({ err: error, errorId: 'e1' }, 'Unhandled error');
    logger.error(error, 'as the first argument');
    const log = lines.join('');
    expect(log).toContain('invalid byte sequence');
    expect(log).toContain('"code":"22021"');
    expect(log).toContain('INSERT INTO');
    expect(log).not.toContain('P1');
  });

  it('redacts the secrets of token and admin API bodies should a request or response body ever be logged', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger(loadAppConfig({ LOG_LEVEL: 'info' }), false, sink);
    // The token endpoint's and the admin API's bodies, as a careless serializer or handler could write them.
    const request = { password: 'B1', client_secret: 'B2', refresh_token: 'B3', code: 'B4', label: 'visible' };
    const answer = { secret: 'B5', secret_access_key: 'B6', access_token: 'B7', refresh_token: 'B8', id_token: 'B9' };
    logger.info({ req: { body: request, query: request }, res: { body: answer }, body: answer }, 'bodies');
    logger.info({ body: request }, 'request body');
    logger.info(
      { req: { method: 'POST', url: '/api/oauth/token', headers: { cookie: 'B1', 'x-ok': 'visible' } } },
      'headers',
    );
    const log = lines.join('');
    expect(log).toContain('visible');
    expect(log).toContain('[Redacted]');
    expect(log).not.toMatch(/B[1-9]/);
  });

  it('writes the request line by hand exactly as pino writes it', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger(loadAppConfig({ LOG_LEVEL: 'info' }), false, sink);
    const bindings = (logger as unknown as Record<symbol, string>)[symbols.chindingsSym];
    const req = { id: 'r-"1', method: 'GET', originalUrl: '/products?q=é"\\&access_token=S1', headers: {} };
    for (const [res, fields] of [
      [{ statusCode: 200, headersSent: true, writableFinished: true }, { responseTime: 3 }],
      [
        { statusCode: 410, headersSent: true },
        { responseTime: 0, principal: 'user:7', problem: '/problems/gone' },
      ],
      [{ statusCode: 200, headersSent: false }, { responseTime: 12 }],
    ] as const) {
      lines.splice(0);
      logger.info({ req, res, ...fields }, requestLine(req, res, fields.responseTime));
      const byHand = requestLineJson(30, bindings, req, res, fields);
      expect(byHand.endsWith('\n')).toBe(true);
      const { time: pinoTime, ...viaPino } = JSON.parse(lines[0]) as Record<string, unknown>;
      const { time, ...handWritten } = JSON.parse(byHand) as Record<string, unknown>;
      expect(Object.entries(handWritten)).toEqual(Object.entries(viaPino));
      expect(time).toEqual(expect.any(Number));
      expect(pinoTime).toEqual(expect.any(Number));
      expect(byHand).not.toContain('S1');
    }
  });
});
