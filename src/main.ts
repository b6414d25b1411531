import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
const config = app.get(AppConfig);
await app.listen(config.port, config.host);
// The address actually bound: PORT=0 picks a free port, and a host name resolves to one address.
const { address, family, port } = (app.getHttpServer() as Server).address() as AddressInfo;
processLogger.log(`Listening on http://${family === 'IPv6' ? `[${address}]` : address}:${port}`);
