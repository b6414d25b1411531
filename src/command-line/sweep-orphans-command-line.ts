import { parseArgs } from 'node:util';
import { type CommandLineExit, readCommandLine, UsageError } from './command-line.js';

const USAGE = `Usage: npm run sweep-orphans -- [--dry-run] [--grace-seconds N]

Removes stored files that no record names and that are older than ORPHAN_GRACE_SECONDS, as the service does at start
and every ORPHAN_SWEEP_INTERVAL_SECONDS (same environment variables as the service). Prints a JSON report; exits
with 1 when some removals failed.

Options:
  --dry-run            Lists what would be removed, removes nothing.
  --grace-seconds N    Removes files older than N seconds instead (0: whatever their age).
  -h, --help           Shows this text.`;

/** What a sweep is asked for: `graceMs` undefined keeps ORPHAN_GRACE_SECONDS. */
export interface SweepRequest {
  dryRun: boolean;
  graceMs: number | undefined;
}

/**
 * Reads `npm run sweep-orphans`'s arguments (`args`: those after the script): the sweep to run, or how the command
 * line ends (--help, a usage error).
 */
export function readSweepOrphansCommandLine(args: string[]): SweepRequest | CommandLineExit {
  return readCommandLine({ text: USAGE, command: 'npm run sweep-orphans' }, () => {
    const { values } = parseArgs({
      args,
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
}
