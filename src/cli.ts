import { readCliCommandLine } from './command-line/cli-command-line.js';
import { exitWith } from './command-line/command-line.js';

// Read before the application loads (a second of CPU): --help and usage errors answer at once.
const commandLine = readCliCommandLine(process.argv.slice(2));
if ('exitCode' in commandLine) exitWith(commandLine);

const { runCliCommand } = await import('./command-line/cli-commands.js');
await runCliCommand(commandLine);
