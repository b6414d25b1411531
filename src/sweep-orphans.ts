import { exitWith } from './command-line/command-line.js';
import { readSweepOrphansCommandLine } from './command-line/sweep-orphans-command-line.js';

// Read before the application loads (a second of CPU): --help and usage errors answer at once.
const commandLine = readSweepOrphansCommandLine(process.argv.slice(2));
if ('exitCode' in commandLine) exitWith(commandLine);

const { sweepOrphans } = await import('./command-line/sweep-orphans-run.js');
await sweepOrphans(commandLine);
