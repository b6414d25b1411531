import { Controller, Get, HttpStatus, Logger, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import {
  Public,
  problem,
  PROBLEM_CONTENT_TYPE,
  ApiProblems,
  FileStorage,
  storageFaultReason,
  ReadCache,
} from '@file-fields/nest';

type CheckResult = 'up' | 'down';

interface Outcome {
  result: CheckResult;
  /** A short reason, safe to show anyone: /health is public, so never a message, a path or a host. */
  reason?: string;
}

@ApiSchema({ name: 'HealthChecks' })
class HealthChecksSchema {
  @ApiProperty({ enum: ['up', 'down'] }) database!: CheckResult;
  @ApiProperty({ enum: ['up', 'down'] }) storage!: CheckResult;
}

@ApiSchema({ name: 'HealthReadCache', description: "This instance's kept catalog answers since it started" })
class HealthReadCacheSchema {
  @ApiProperty({ type: 'integer', description: 'Answers sent again' }) hits!: number;
  @ApiProperty({ type: 'integer', description: 'Answers made anew' }) misses!: number;
  @ApiProperty({ type: 'integer', description: 'Times every kept answer was dropped (data or URL window changed)' })
  flushes!: number;
}

@ApiSchema({ name: 'Health' })
class HealthSchema {
  @ApiProperty({ enum: ['ok'] }) status!: string;
  @ApiProperty({ type: HealthChecksSchema }) checks!: HealthChecksSchema;
  @ApiProperty({ type: HealthReadCacheSchema }) readCache!: HealthReadCacheSchema;
}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger(HealthController.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: FileStorage,
    private readonly readCache: ReadCache,
  ) {}

  @Get()
  @ApiOkResponse({ type: HealthSchema, description: 'Both checks passed' })
  @ApiProblems([503, 'A check failed: the problem holds `checks` and a short reason per failed check in `reasons`'])
  @ApiOperation({
    operationId: 'checkHealth',
    summary: '200 when the database is reachable and the file storage can be written to, 503 otherwise',
    description: 'The storage check writes and removes a small probe, so a full or read-only disk is reported down.',
  })
  async check(@Res() res: Response): Promise<void> {
    const [database, storage] = await Promise.all([
      this.outcome(
        'database',
        () => this.dataSource.query('SELECT 1'),
        () => 'database unreachable',
      ),
      this.outcome('storage', () => this.storage.check(), storageFaultReason),
    ]);
    const checks = { database: database.result, storage: storage.result };
    res.setHeader('Cache-Control', 'no-store');
    if (database.result === 'up' && storage.result === 'up') {
      res.status(HttpStatus.OK).json({ status: 'ok', checks, readCache: this.readCache.stats() });
      return;
    }
    const reasons = Object.fromEntries(
      Object.entries({ database, storage }).flatMap(([name, o]) => (o.reason ? [[name, o.reason]] : [])),
    );
    const body = { ...problem(503, 'A dependency of the service is unavailable.'), checks, reasons };
    res.status(HttpStatus.SERVICE_UNAVAILABLE).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }

  private async outcome(
    name: string,
    probe: () => Promise<unknown>,
    describe: (error: unknown) => string,
  ): Promise<Outcome> {
    try {
      await probe();
      return { result: 'up' };
    } catch (error) {
      this.logger.error({ err: error, check: name }, 'Health check failed');
      return { result: 'down', reason: describe(error) };
    }
  }
}
