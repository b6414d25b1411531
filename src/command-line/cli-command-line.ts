import { parseArgs } from 'node:util';
import { type CommandLineExit, readCommandLine, UsageError } from './command-line.js';

const USAGE = `Usage: npm run cli -- <command> [options]

Administration from the command line, on the service's database (same environment variables as the service).

Commands:
  create-role --name NAME --permissions PERMISSION[,PERMISSION...]
      A role: lower-case letters, digits, - or _, and its permissions, each <resource>:<read|write> or *
      (e.g. --name catalog-reader --permissions product:read,article:read).
  create-user --username NAME --password PASSWORD --role ROLE
      A user of the administration interface; ROLE is the name of a role (admin holds every permission).
  create-integration --label LABEL --role ROLE
      An integration; prints its client id and secret (shown only here).
  rotate-signing-key
      Adds a signing key that signs after SIGNING_KEY_PREPUBLISH.
  rotate-webhook-signing-key
      Adds an Ed25519 key for webhooks' v1a signatures that signs after WEBHOOK_SIGNING_KEY_PREPUBLISH.

Every change is recorded in the audit trail with the actor cli.

Options:
  -h, --help  Shows this text.`;

type Option = 'username' | 'password' | 'label' | 'role' | 'name' | 'permissions';

/** The values of a command's options, as given. */
export type CliValues = Partial<Record<Option, string>>;

interface CommandOptions {
  required: Option[];
  optional: Option[];
}

/** The commands and the options each takes; what they do is in cli-commands.ts, loaded only to run one. */
const COMMANDS = {
  'create-role': { required: ['name', 'permissions'], optional: [] },
  // No default role: a forgotten --role must not make an administrator.
  'create-user': { required: ['username', 'password', 'role'], optional: [] },
  'create-integration': { required: ['label', 'role'], optional: [] },
  'rotate-signing-key': { required: [], optional: [] },
  'rotate-webhook-signing-key': { required: [], optional: [] },
} satisfies Record<string, CommandOptions>;

export type CliCommandName = keyof typeof COMMANDS;

/** A command line that names a command and gives it the options it takes. */
export interface CliCommandLine {
  command: CliCommandName;
  values: CliValues;
}

/** The command named on the line, once its options are the ones it takes. */
function commandOf(positionals: string[], values: CliValues): CliCommandName {
  const [name, ...rest] = positionals;
  if (name === undefined) throw new UsageError('No command given');
  if (!Object.hasOwn(COMMANDS, name)) throw new UsageError(`Unknown command '${name}'`);
  const command: CommandOptions = COMMANDS[name as CliCommandName];
  if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0]}'`);
  const missing = command.required.filter((option) => values[option] === undefined);
  if (missing.length > 0) throw new UsageError(`${name} needs ${missing.map((o) => `--${o}`).join(' and ')}`);
  const takes = new Set<string>([...command.required, ...command.optional]);
  const foreign = Object.keys(values).find((option) => !takes.has(option));
  if (foreign) throw new UsageError(`${name} does not take --${foreign}`);
  return name as CliCommandName;
}

/**
 * Reads `npm run cli`'s arguments (`args`: those after the script): the command to run with its values, or how the
 * command line ends (--help, a usage error). Checks all that the line alone can tell, without the application.
 */
export function readCliCommandLine(args: string[]): CliCommandLine | CommandLineExit {
  return readCommandLine({ text: USAGE, command: 'npm run cli' }, () => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        username: { type: 'string' },
        password: { type: 'string' },
        label: { type: 'string' },
        role: { type: 'string' },
        name: { type: 'string' },
        permissions: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const { help, ...options } = values;
    return help ? { help } : { values: options, command: commandOf(positionals, options) };
  });
}
