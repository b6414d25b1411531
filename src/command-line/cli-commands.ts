import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import '../app.module.js';
import { AuditTrail } from '../audit/index.js';
import type { CliCommandLine, CliCommandName, CliValues } from './cli-command-line.js';
import { exitWith } from './command-line.js';
import { SYSTEM_PRINCIPAL } from '../common/auth/principal.js';
import { createValidationPipe } from '@file-fields/nest';
import { StderrLogger } from './stderr-logger.js';
import {
  CreateRoleDto,
  IntegrationsService,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  RolesService,
  SigningKeysService,
  UsersService,
} from '../token/index.js';
import { WebhookSigningKeys } from '../webhooks/index.js';
import { CliModule } from './cli.module.js';

/** The actor of every change made from the command line, in the audit trail. */
const CLI_ACTOR = 'cli';

/** What a command did, for the audit trail: as the administration API records the same change. */
interface Change {
  action: string;
  targetType: string;
  targetId: string | number;
}

interface Command {
  /** Checks the values before anything is opened: a message for the user, or undefined. */
  check?(values: CliValues): Promise<string | undefined> | string | undefined;
  /** Runs the command: what it prints (as JSON), and the change it made. */
  run(app: INestApplicationContext, values: CliValues): Promise<{ printed: unknown; change: Change }>;
}

/** What each command does; its options were checked against cli-command-line.ts before this module was loaded. */
const COMMANDS: Record<CliCommandName, Command> = {
  'create-role': {
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
    run: async (app) => {
      const rotated = await app.get(SigningKeysService).rotate();
      if (!rotated) throw new Error('The new signing key could not be stored');
      return {
        printed: { kid: rotated.kid, activates_at: new Date(rotated.activatesAt).toISOString() },
        change: { action: 'signing-key.rotate', targetType: 'signing-key', targetId: rotated.kid },
      };
    },
  },
  'rotate-webhook-signing-key': {
    run: async (app) => {
      const rotated = await app.get(WebhookSigningKeys).rotate();
      if (!rotated) throw new Error('The new webhook signing key could not be stored');
      return {
        printed: { kid: rotated.kid, activates_at: new Date(rotated.activatesAt).toISOString() },
        // As POST /api/webhooks/signing-keys/rotate records it.
        change: { action: 'webhook-signing-key.rotate', targetType: 'webhook-signing-key', targetId: rotated.kid },
      };
    },
  },
};

function roleInput(values: CliValues): { name: string; permissions: string[] } {
  const permissions = values.permissions ? values.permissions.split(',').map((permission) => permission.trim()) : [];
  return { name: values.name!, permissions };
}

/**
 * Runs a command whose command line is right: checks its values with the application's own rules (exit code 2 and
 * one line when they fail), then runs it on the database, records the change in the audit trail and prints the answer.
 */
export async function runCliCommand({ command: name, values }: CliCommandLine): Promise<void> {
  const command = COMMANDS[name];
  const refusal = await command.check?.(values);
  if (refusal !== undefined) exitWith({ exitCode: 2, stream: 'stderr', text: refusal });

  const app = await NestFactory.createApplicationContext(CliModule, { logger: new StderrLogger() });
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
}
