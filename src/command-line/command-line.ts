// Used before the application loads (its modules take a second of CPU): no imports beyond Node's own here.

/** A command line that cannot run as given (an unknown command, a missing option): `message` is one line. */
export class UsageError extends Error {}

/** How a command line ends before its command runs: what to print, where, and the exit code. */
export interface CommandLineExit {
  exitCode: number;
  stream: 'stdout' | 'stderr';
  text: string;
}

/**
 * Reads the arguments of a command-line entry point. `parse` calls `parseArgs` (with a boolean `help` option) and
 * may throw a {@link UsageError}. `--help` ends with the usage and exit code 0; an unknown option, a missing value or
 * a UsageError ends with one line naming the problem and exit code 2, never a stack trace.
 */
export function readCommandLine<T extends { help?: boolean }>(
  usage: { text: string; command: string },
  parse: () => T,
): Exclude<T, { help: true }> | CommandLineExit {
  try {
    const parsed = parse();
    if (parsed.help) return { exitCode: 0, stream: 'stdout', text: usage.text };
    return parsed as Exclude<T, { help: true }>;
  } catch (error) {
    const message = problemOf(error);
    if (message === undefined) throw error;
    return { exitCode: 2, stream: 'stderr', text: `${message} (\`${usage.command} -- --help\` shows the usage)` };
  }
}

/** Prints what a command line ended with and exits with its code. */
export function exitWith({ exitCode, stream, text }: CommandLineExit): never {
  process[stream].write(`${text}\n`);
  process.exit(exitCode);
}

/** The one-line problem of a malformed command line; undefined for any other error. */
function problemOf(error: unknown): string | undefined {
  if (error instanceof UsageError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return undefined;
  // Node's messages go on with advice about `--` that does not help here: keep their first sentence.
  return (error as Error).message.split(/\.\s/)[0];
}
