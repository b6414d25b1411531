import { Logger } from '@nestjs/common';
import { inspect } from 'node:util';
import { AppConfig } from './config/environment.js';
import { createApp } from './app.factory.js';

const processLogger = new Logger('Process');
// A promise nobody awaited must not take every request and delivery down with it, nor vanish: log it at error
// level with its stack and keep serving. Tests build the app with createApp, not this file, so there the
// rejection still fails the run.
process.on('unhandledRejection', (reason: unknown) => {
  const err = reason instanceof Error ? reason : new Error(`Non-error rejection: ${inspect(reason)}`);
  processLogger.error({ err }, `Unhandled promise rejection: ${err.message}`);
});

const app = await createApp();
await app.listen(app.get(AppConfig).port);
