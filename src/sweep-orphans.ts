import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import './app.module.js';
import { parseArgs } from 'node:util';
import { exitWith, readCommandLine, StderrLogger, UsageError } from './command-line.js';
import { OrphanSweeper } from './files/index.js';
import { SweepCliModule } from './sweep-cli.module.js';

const USAGE = `Usage: npm run sweep-orphans -- [--dry-run] [--grace-seconds N]

Removes stored files that no record names and that are older than ORPHAN_GRACE_SECONDS, as the service does at start
and every ORPHAN_SWEEP_INTERVAL_SECONDS (same environment variables as the service). Prints a JSON report; exits
with 1 when some removals failed.

Options:
  --dry-run            Lists what would be removed, removes nothing.
  --grace-seconds N    Removes files older than N seconds instead (0: whatever their age).
  -h, --help           Shows this text.`;

const commandLine = readCommandLine({ text: USAGE, command: 'npm run sweep-orphans' }, () => {
  const { values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      'grace-seconds': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: values.help };
  const graceSeconds = values['grace-seconds'] === undefined ? undefined : Number(values['grace-seconds']);
  if (graceSeconds !== undefined && !(Number.isSafeInteger(graceSeconds) && graceSeconds >= 0)) {
    throw new UsageError('--grace-seconds must be a whole number of seconds');
  }
  return { dryRun: values['dry-run'], graceMs: graceSeconds === undefined ? undefined : graceSeconds * 1000 };
});
if ('exitCode' in commandLine) exitWith(commandLine);

const app = await NestFactory.createApplicationContext(SweepCliModule, { logger: new StderrLogger() });
try {
  const report = await app.get(OrphanSweeper).sweep(commandLine);
  console.log(JSON.stringify(report, null, 2));
  process.exitCode = report.failed > 0 ? 1 : 0;
} finally {
  await app.close();
}
