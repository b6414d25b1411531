import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import './app.module.js';
import { parseArgs } from 'node:util';
import { SYSTEM_PRINCIPAL } from './common/auth/principal.js';
import {
  IntegrationsService,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  SigningKeysService,
  TokenCliModule,
  UsersService,
} from './token/index.js';

const USAGE = `Usage:
  npm run cli -- create-user --username NAME --password PASSWORD [--role admin]
  npm run cli -- create-integration --label LABEL [--role admin]
  npm run cli -- rotate-signing-key`;

/** Administration from the command line (same database as the service: same environment variables). */
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    username: { type: 'string' },
    password: { type: 'string' },
    label: { type: 'string' },
    role: { type: 'string', default: 'admin' },
  },
});

const app = await NestFactory.createApplicationContext(TokenCliModule, { logger: ['error', 'warn'] });
try {
  const [command] = positionals;
  if (command === 'create-user' && values.password !== undefined && values.password.length < PASSWORD_MIN_LENGTH) {
    console.error(PASSWORD_TOO_SHORT);
    process.exitCode = 2;
  } else if (command === 'create-user' && values.username && values.password) {
    const user = await app
      .get(UsersService)
      .create({ username: values.username, password: values.password, role: values.role }, SYSTEM_PRINCIPAL);
    console.log(JSON.stringify({ id: user.id, username: user.username, role: values.role }, null, 2));
  } else if (command === 'create-integration' && values.label) {
    const { integration, secret } = await app
      .get(IntegrationsService)
      .create({ label: values.label, role: values.role }, SYSTEM_PRINCIPAL);
    console.log(
      JSON.stringify(
        {
          id: integration.id,
          label: integration.label,
          role: values.role,
          access_key_id: integration.accessKeyId,
          secret_access_key: secret,
        },
        null,
        2,
      ),
    );
  } else if (command === 'rotate-signing-key') {
    const rotated = await app.get(SigningKeysService).rotate();
    if (!rotated) throw new Error('The new signing key could not be stored');
    console.log(
      JSON.stringify({ kid: rotated.kid, activates_at: new Date(rotated.activatesAt).toISOString() }, null, 2),
    );
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await app.close();
}
