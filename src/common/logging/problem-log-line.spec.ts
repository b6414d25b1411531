import { NotFoundException, type ArgumentsHost } from '@nestjs/common';
import type { Express } from 'express';
import { DomainError } from '@file-fields/nest';
import { ProblemDetailsFilter } from '../errors/problem-details.filter.js';
import { requestLogOf } from '../testing/request-log.js';

class GoneError extends DomainError {
  readonly status = 410;
  readonly code = 'upload-expired';
  readonly title = 'Upload expired';
}

/** The one line the request logger writes for a request the problem details filter answers with `error`. */
async function lineFor(error: unknown): Promise<Record<string, unknown>[]> {
  const route = (app: Express) =>
    app.get('/x', (req, res) => {
      const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as ArgumentsHost;
      new ProblemDetailsFilter().catch(error, host);
    });
  const lines = await requestLogOf('info', route, (base) => fetch(`${base}/x?q=secret-detail`));
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
