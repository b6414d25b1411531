import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import './app.module.js';
import { parseArgs } from 'node:util';
import { exitWith, readCommandLine, StderrLogger, UsageError } from './command-line.js';
import { SYSTEM_PRINCIPAL } from './common/auth/principal.js';
import { createValidationPipe } from './common/pipes/validation.js';
import {
  CreateRoleDto,
  IntegrationsService,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  RolesService,
  SigningKeysService,
  TokenCliModule,
  UsersService,
} from './token/index.js';

const USAGE = `Usage: npm run cli -- <command> [options]

Administration from the command line, on the service's database (same environment variables as the service).

Commands:
  create-role --name NAME --permissions PERMISSION[,PERMISSION...]
      A role: lower-case letters, digits, - or _, and its permissions, each <resource>:<read|write> or *
      (e.g. --name catalog-reader --permissions product:read,article:read).
  create-user --username NAME --password PASSWORD [--role ROLE]
      A user of the administration interface; ROLE is the name of a role (default: admin).
  create-integration --label LABEL [--role ROLE]
      An integration; prints its client id and secret (shown only here). ROLE defaults to admin.
  rotate-signing-key
      Adds a signing key that signs after SIGNING_KEY_PREPUBLISH.

Options:
  -h, --help  Shows this text.`;

type Values = Partial<Record<'username' | 'password' | 'label' | 'role' | 'name' | 'permissions', string>>;

interface Command {
  required: (keyof Values)[];
  optional: (keyof Values)[];
  /** Checks the values before anything is opened: a message for the user, or undefined. */
  check?(values: Values): Promise<string | undefined> | string | undefined;
  /** Runs the command and returns what it prints (as JSON). */
  run(app: INestApplicationContext, values: Values): Promise<unknown>;
}

const COMMANDS: Record<string, Command> = {
  'create-role': {
    required: ['name', 'permissions'],
    optional: [],
    // The same validation as POST /api/roles: the request body's own class and pipe.
    check: (values) =>
      createValidationPipe()
        .transform(roleInput(values), { type: 'body', metatype: CreateRoleDto })
        .then(
          () => undefined,
          (error: Error) => error.message,
        ),
    run: async (app, values) => {
      const role = await app.get(RolesService).create(roleInput(values), SYSTEM_PRINCIPAL);
      return { id: role.id, name: role.name, permissions: role.permissions };
    },
  },
  'create-user': {
    required: ['username', 'password'],
    optional: ['role'],
    check: (values) => (values.password!.length < PASSWORD_MIN_LENGTH ? PASSWORD_TOO_SHORT : undefined),
    run: async (app, values) => {
      const role = values.role ?? 'admin';
      const input = { username: values.username!, password: values.password!, role };
      const user = await app.get(UsersService).create(input, SYSTEM_PRINCIPAL);
      return { id: user.id, username: user.username, role };
    },
  },
  'create-integration': {
    required: ['label'],
    optional: ['role'],
    run: async (app, values) => {
      const role = values.role ?? 'admin';
      const { integration, secret } = await app
        .get(IntegrationsService)
        .create({ label: values.label!, role }, SYSTEM_PRINCIPAL);
      return {
        id: integration.id,
        label: integration.label,
        role,
        access_key_id: integration.accessKeyId,
        secret_access_key: secret,
      };
    },
  },
  'rotate-signing-key': {
    required: [],
    optional: [],
    run: async (app) => {
      const rotated = await app.get(SigningKeysService).rotate();
      if (!rotated) throw new Error('The new signing key could not be stored');
      return { kid: rotated.kid, activates_at: new Date(rotated.activatesAt).toISOString() };
    },
  },
};

function roleInput(values: Values): { name: string; permissions: string[] } {
  const permissions = values.permissions ? values.permissions.split(',').map((permission) => permission.trim()) : [];
  return { name: values.name!, permissions };
}

/** The command named on the line, once its options are the ones it takes. */
function commandOf(positionals: string[], values: Values): Command {
  const [name, ...rest] = positionals;
  if (name === undefined) throw new UsageError('No command given');
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`Unknown command '${name}'`);
  if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0]}'`);
  const missing = command.required.filter((option) => values[option] === undefined);
  if (missing.length > 0) throw new UsageError(`${name} needs ${missing.map((o) => `--${o}`).join(' and ')}`);
  const takes = new Set<string>([...command.required, ...command.optional]);
  const foreign = Object.keys(values).find((option) => !takes.has(option));
  if (foreign) throw new UsageError(`${name} does not take --${foreign}`);
  return command;
}

const commandLine = readCommandLine({ text: USAGE, command: 'npm run cli' }, () => {
  const { values, positionals } = parseArgs({
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
if ('exitCode' in commandLine) exitWith(commandLine);

const { values, command } = commandLine;
const refusal = await command.check?.(values);
if (refusal !== undefined) exitWith({ exitCode: 2, stream: 'stderr', text: refusal });

const app = await NestFactory.createApplicationContext(TokenCliModule, { logger: new StderrLogger() });
try {
  console.log(JSON.stringify(await command.run(app, values), null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await app.close();
}
