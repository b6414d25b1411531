import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import '../app.module.js';
import { OrphanSweeper } from '@file-fields/nest';
import { StderrLogger } from './stderr-logger.js';
import { SweepCliModule } from './sweep-cli.module.js';
import type { SweepRequest } from './sweep-orphans-command-line.js';

/** Sweeps as asked and prints the JSON report; exit code 1 when some removals failed. */
export async function sweepOrphans(request: SweepRequest): Promise<void> {
  const app = await NestFactory.createApplicationContext(SweepCliModule, { logger: new StderrLogger() });
  try {
    const report = await app.get(OrphanSweeper).sweep(request);
    console.log(JSON.stringify(report, null, 2));
    process.exitCode = report.failed > 0 ? 1 : 0;
  } finally {
    await app.close();
  }
}
