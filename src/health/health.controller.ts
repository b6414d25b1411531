import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../common/auth/auth.decorators.js';
import { problem, PROBLEM_CONTENT_TYPE } from '../common/errors/problem-details.js';
import { FileStorage } from '../files/storage/file-storage.js';

type CheckResult = 'up' | 'down';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: FileStorage,
  ) {}

  @Get()
  @ApiOperation({ summary: '200 when the database and the file storage are reachable, 503 otherwise' })
  async check(@Res() res: Response): Promise<void> {
    const checks = {
      database: await outcome(() => this.dataSource.query('SELECT 1')),
      storage: await outcome(() => this.storage.check()),
    };
    res.setHeader('Cache-Control', 'no-store');
    if (Object.values(checks).every((c) => c === 'up')) {
      res.status(HttpStatus.OK).json({ status: 'ok', checks });
      return;
    }
    const body = { ...problem(503, 'A dependency of the service is unreachable.'), checks };
    res.status(HttpStatus.SERVICE_UNAVAILABLE).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }
}

async function outcome(probe: () => Promise<unknown>): Promise<CheckResult> {
  return probe().then(
    () => 'up',
    () => 'down',
  );
}
