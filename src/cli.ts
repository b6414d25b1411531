import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import './app.module.js';
import { parseArgs } from 'node:util';
import { AuditTrail } from './audit/index.js';
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
  create-user --username NAME --password PASSWORD --role ROLE
      A user of the administration interface; ROLE is the name of a role (admin holds every permission).
  create-integration --label LABEL --role ROLE
      An integration; prints its client id and secret (shown only here).
  rotate-signing-key
      Adds a signing key that signs after SIGNING_KEY_PREPUBLISH.

Every change is recorded in the audit trail with the actor cli.

Options:
  -h, --help  Shows this text.`;

/** The actor of every change made from the command line, in the audit trail. */
const CLI_ACTOR = 'cli';

type Values = Partial<Record<'username' | 'password' | 'label' | 'role' | 'name' | 'permissions', string>>;

/** What a command did, for the audit trail: as the administration API records the same change. */
interface Change {
  action: string;
  targetType: string;
  targetId: string | number;
}

interface Command {
  required: (keyof Values)[];
  optional: (keyof Values)[];
  /** Checks the values before anything is opened: a message for the user, or undefined. */
  check?(values: Values): Promise<string | undefined> | string | undefined;
  /** Runs the command: what it prints (as JSON), and the change it made. */
  run(app: INestApplicationContext, values: Values): Promise<{ printed: unknown; change: Change }>;
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
      return {
        printed: { id: role.id, name: role.name, permissions: role.permissions },
        change: { action: 'role.create', targetType: 'role', targetId: role.id },
      };
    },
  },
  'create-user': {
    // No default role: a forgotten --role must not make an administrator.
    required: ['username', 'password', 'role'],
    optional: [],
    check: (values) => (values.password!.length < PASSWORD_MIN_LENGTH ? PASSWORD_TOO_SHORT : undefined),
    run: async (app, values) => {
      const role = values.role!;
      const input = { username: values.username!, password: values.password!, role };
      const user = await app.get(UsersService).create(input, SYSTEM_PRINCIPAL);
      return {
        printed: { id: user.id, username: user.username, role },
        change: { action: 'user.create', targetType: 'user', targetId: user.id },
      };
    },
  },
  'create-integration': {
    required: ['label', 'role'],
    optional: [],
    run: async (app, values) => {
      const role = values.role!;
      const { integration, secret } = await app
        .get(IntegrationsService)
        .create({ label: values.label!, role }, SYSTEM_PRINCIPAL);
      return {
        printed: {
          id: integration.id,
          label: integration.label,
          role,
          access_key_id: integration.accessKeyId,
          secret_access_key: secret,
        },
        change: { action: 'integration.create', targetType: 'integration', targetId: integration.id },
      };
    },
  },
  'rotate-signing-key': {
    required: [],
    optional: [],
    run: async (app) => {
      const rotated = await app.get(SigningKeysService).rotate();
      if (!rotated) throw new Error('The new signing key could not be stored');
      return {
        printed: { kid: rotated.kid, activates_at: new Date(rotated.activatesAt).toISOString() },
        change: { action: 'signing-key.rotate', targetType: 'signing-key', targetId: rotated.kid },
      };
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
  const { printed, change } = await command.run(app, values);
  // Recorded before the answer is printed; the trail logs (and does not throw) should the database refuse it.
  await app.get(AuditTrail).record({ actor: CLI_ACTOR, ...change });
  console.log(JSON.stringify(printed, null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await app.close();
}
