import type { LoggerService } from '@nestjs/common';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { pino } from 'pino';
import { loadAppConfig } from '../../config/environment.js';
import {
  chooseLogFormat,
  describeDatabase,
  describeStorage,
  FrameworkNarrationAtDebug,
  prettyMessage,
  prettyStream,
} from './log-output.js';

describe('log output', () => {
  it('is pretty on a terminal and JSON elsewhere, unless LOG_FORMAT says which', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes pretty lines a person reads: time, level, context, message, principal and request', () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    });
    const logger = pino({ level: 'info' }, prettyStream(sink));
    logger.info({ context: 'Process' }, 'Listening on http://127.0.0.1:3000');
    const req = { id: 'r-1', method: 'GET', url: '/products' };
    logger.info({ req, res: { statusCode: 200 }, responseTime: 3, principal: 'user:7' }, 'GET /products 200 3ms');
    logger.warn({ req, fileId: 4 }, 'The stored bytes of a file record are missing');
    logger.debug({ context: 'RouterExplorer' }, 'Mapped {/products, GET} route');
    // Colours follow the terminal; the words are what is checked.
    const lines = stripVTControlCharacters(text).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[Process\] Listening on http:\/\/127\.0\.0\.1:3000$/);
    expect(lines[1]).toMatch(/INFO: GET \/products 200 3ms user:7 \(request r-1\)$/);
    expect(lines[2]).toMatch(/WARN: The stored bytes of a file record are missing \(GET \/products, request r-1\)$/);
    // A field the message does not say stays, below it.
    expect(lines[3]).toMatch(/fileId: 4/);
    expect(lines).toHaveLength(4);
    expect(text).not.toMatch(/hostname|pid|responseTime|statusCode|"msg"/);
  });

  it('builds a pretty line from a record without a context or a request', () => {
    expect(prettyMessage({ msg: 'plain' }, 'msg')).toBe('plain');
  });

  it("moves Nest's start-up narration to debug level and leaves everything else where it was", () => {
    const calls: string[] = [];
    const record =
      (level: string) =>
      (message: unknown, ...params: unknown[]) =>
        calls.push(`${level} ${String(params.at(-1))}: ${String(message)}`);
    const inner: LoggerService = {
      log: record('info'),
      error: record('error'),
      warn: record('warn'),
      debug: record('debug'),
      verbose: record('verbose'),
      fatal: record('fatal'),
    };
    const logger = new FrameworkNarrationAtDebug(inner);
    logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('HealthController {/health}:', 'RoutesResolver');
    logger.log('Starting Nest application...', 'NestFactory');
    logger.log('Nest application successfully started', 'NestApplication');
    logger.log('Listening on http://127.0.0.1:3000', 'Process');
    logger.warn('A warning of the framework', 'NestApplication');
    logger.error('Failed to map a route', 'RouterExplorer');
    logger.fatal('Out of file descriptors', 'Process');
    expect(calls).toEqual([
      'debug RouterExplorer: Mapped {/health, GET} route',
      'debug InstanceLoader: AppModule dependencies initialized',
      'debug RoutesResolver: HealthController {/health}:',
      'debug NestFactory: Starting Nest application...',
      'debug NestApplication: Nest application successfully started',
      'info Process: Listening on http://127.0.0.1:3000',
      'warn NestApplication: A warning of the framework',
      'error RouterExplorer: Failed to map a route',
      'fatal Process: Out of file descriptors',
    ]);
  });

  it('names the database and the storage at start, without their credentials', () => {
    expect(describeDatabase(loadAppConfig({ DATA_DIR: '/srv/data' }))).toBe('SQLite at /srv/data/app.sqlite');
    const postgres = loadAppConfig({
      DATABASE_URL: 'postgres://app:pw-S1@db.internal:5432/files',
      DATABASE_SCHEMA: 'a',
    });
    expect(describeDatabase(postgres)).toBe('PostgreSQL at db.internal:5432/files, schema a');
    expect(describeStorage({ driver: 'local', root: '/srv/data/files' })).toBe('a directory, /srv/data/files');
    const s3 = { bucket: 'b', region: 'eu-west-1', accessKeyId: 'K-S2', secretAccessKey: 'S3', forcePathStyle: true };
    expect(describeStorage({ driver: 's3', ...s3, endpoint: 'http://u:S4@minio:9000' })).toBe(
      'S3 bucket b at minio:9000 (eu-west-1)',
    );
    expect(describeStorage({ driver: 's3', ...s3 })).toBe('S3 bucket b (eu-west-1)');
  });
});
