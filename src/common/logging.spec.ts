import express from 'express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { pinoHttp, type Options } from 'pino-http';
import { QueryFailedError } from 'typeorm';
import { loadAppConfig } from '../config/environment.js';
import { loggerParams, redactUrl } from './logging.js';

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

  it('never writes a credential sent in the query string or a credential header to the log', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const app = express();
    app.use(pinoHttp(loggerParams(loadAppConfig({ LOG_LEVEL: 'info' })).pinoHttp as Options, sink));
    app.get(
      '/products',
      (_req, res) => void res.setHeader('Set-Cookie', 'sid=S8').setHeader('X-Upstream-Token', 'S5').json({ ok: true }),
    );
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/products?${SECRETS}&limit=5`, {
        headers: {
          Authorization: 'Bearer S6',
          Cookie: 'session=S7',
          'Proxy-Authorization': 'Basic S9',
          'X-Api-Key': 'S4',
          'User-Agent': 'log-test/1.0',
        },
      });
      expect(res.status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const log = lines.join('');
    expect(log).toContain('limit=5');
    expect(log).toContain('[REDACTED]');
    expect(log).toContain('"method":"GET"');
    expect(log).toContain('"statusCode":200');
    // Listed headers are shown, any other is not: a secret in a header the service does not know of stays out.
    expect(log).toContain('"user-agent":"log-test/1.0"');
    expect(log).toContain('"content-type":"application/json; charset=utf-8"');
    expect(log).not.toMatch(/x-api-key|x-upstream-token/i);
    expect(log).not.toMatch(/S[1-9]/);
  });

  it("writes a failed query's error without the values it was given (TypeORM's parameters)", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const { serializers } = loggerParams(loadAppConfig({ LOG_LEVEL: 'info' })).pinoHttp as Options;
    const logger = pino({ serializers }, sink);
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
    const { serializers } = loggerParams(loadAppConfig({ LOG_LEVEL: 'info' })).pinoHttp as Options;
    const logger = pino({ serializers }, sink);
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
});
