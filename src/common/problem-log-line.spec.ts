import { NotFoundException, type ArgumentsHost } from '@nestjs/common';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp, type Options } from 'pino-http';
import { loadAppConfig } from '../config/environment.js';
import { DomainError } from './errors/domain-error.js';
import { ProblemDetailsFilter } from './errors/problem-details.filter.js';
import { loggerParams } from './logging.js';

class GoneError extends DomainError {
  readonly status = 410;
  readonly code = 'upload-expired';
  readonly title = 'Upload expired';
}

/** The one line the request logger writes for a request the problem details filter answers with `error`. */
async function lineFor(error: unknown): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = express();
  app.use(
    pinoHttp(loggerParams(loadAppConfig({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }), false).pinoHttp as Options, sink),
  );
  app.get('/x', (req, res) => {
    const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as ArgumentsHost;
    new ProblemDetailsFilter().catch(error, host);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?q=secret-detail`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the request line of an error answer', () => {
  it('carries the problem type of a 4xx, in the one line written for the request', async () => {
    const lines = await lineFor(new GoneError('The upload secret-detail expired.'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, res: { statusCode: 410 }, problem: '/problems/upload-expired' });
    expect(JSON.stringify(lines[0])).not.toContain('expired.');
  });

  it('carries about:blank for a plain HTTP error', async () => {
    expect((await lineFor(new NotFoundException()))[0]).toMatchObject({ problem: 'about:blank' });
  });
});
