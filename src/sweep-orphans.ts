import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import './app.module.js';
import { parseArgs } from 'node:util';
import { OrphanSweeper } from './files/index.js';
import { SweepCliModule } from './sweep-cli.module.js';

/**
 * Removes stored objects without a record, by hand: `npm run sweep-orphans -- [--dry-run] [--grace-seconds N]`.
 * Prints a JSON report; exits 1 when some removals failed.
 */
const { values } = parseArgs({
  options: { 'dry-run': { type: 'boolean', default: false }, 'grace-seconds': { type: 'string' } },
});
const graceSeconds = values['grace-seconds'] === undefined ? undefined : Number(values['grace-seconds']);
if (graceSeconds !== undefined && !(Number.isSafeInteger(graceSeconds) && graceSeconds >= 0)) {
  console.error('--grace-seconds must be a whole number of seconds');
  process.exit(2);
}
const app = await NestFactory.createApplicationContext(SweepCliModule, { logger: ['error', 'warn'] });
try {
  const report = await app
    .get(OrphanSweeper)
    .sweep({ dryRun: values['dry-run'], graceMs: graceSeconds === undefined ? undefined : graceSeconds * 1000 });
  console.log(JSON.stringify(report, null, 2));
  process.exitCode = report.failed > 0 ? 1 : 0;
} finally {
  await app.close();
}
