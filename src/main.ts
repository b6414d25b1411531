import { Logger, type INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { createApp } from './app.factory.js';
import { describeDatabase, describeStorage } from './common/logging/log-output.js';
import { AppConfig, loadAppConfig } from './config/environment.js';
import { freePortOn } from './config/local-url.js';
import { filesConfig, type FilesConfig } from './files/index.js';

/** Signals that ask the service to stop: SIGTERM from an orchestrator or `kill`, SIGINT from Ctrl+C, and the like. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'] as const;

let host: string;
let port: number;
// A wrong app-wide variable stops the start with its message alone, on one line: the stack trace the framework would
// print around it says nothing to whoever set the variable.
try {
  ({ host, port } = loadAppConfig());
} catch (error) {
  const [head, ...bad] = (error instanceof Error ? error.message : String(error)).split('\n');
  console.error([head, bad.map((line) => line.trim()).join('; ')].join(' ').trim());
  process.exit(1);
}

const processLogger = new Logger('Process');
// A promise nobody awaited must not take every request and delivery down with it, nor vanish: log it at error
// level with its stack and keep serving. Tests build the app with createApp, not this file, so there the
// rejection still fails the run.
process.on('unhandledRejection', (reason: unknown) => {
  const err = reason instanceof Error ? reason : new Error(`Non-error rejection: ${inspect(reason)}`);
  processLogger.error({ err }, `Unhandled promise rejection: ${err.message}`);
});

/**
 * On a stop signal: stop taking requests, let those under way finish, run the shutdown hooks (deliveries, variants,
 * database, Redis), then say so in one line and exit 0. A second signal while stopping ends the process at once.
 */
function stopOnSignals(app: INestApplication): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      processLogger.warn(`${signal} while stopping: exiting at once`);
      process.exit(1);
    }
    stopping = true;
    app.close().then(
      () => {
        processLogger.log(`Stopped cleanly on ${signal}`);
        process.exit(0);
      },
      (error: unknown) => {
        processLogger.error({ err: error }, `Stopping on ${signal} failed`);
        process.exit(1);
      },
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
}

// PORT=0 asks for a free port: it is chosen before the modules read PORT, so that the issuer and the file URLs
// derived from it name the port the service listens on.
if (port === 0) process.env.PORT = String(await freePortOn(host));

const app = await createApp();
stopOnSignals(app);
const config = app.get(AppConfig);
processLogger.log(`Database: ${describeDatabase(config)}`);
processLogger.log(`Files stored in ${describeStorage(app.get<FilesConfig>(filesConfig.KEY).storage)}`);
await app.listen(config.port, config.host);
// The address actually bound: a host name resolves to one address.
const bound = (app.getHttpServer() as Server).address() as AddressInfo;
const listening = `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
processLogger.log(`Listening on ${listening}`);
// Tokens and file URLs name the issuer: when it is not the address above (a wildcard or a host name, OAUTH_ISSUER),
// say which address they name, so that nobody opens the other one and finds them refused.
const { issuer, issuerIsSet } = config;
if (issuer !== listening) {
  const from = issuerIsSet ? 'OAUTH_ISSUER' : 'from HOST; set OAUTH_ISSUER to the address clients use';
  processLogger.log(`Tokens and file URLs name ${issuer} (${from})`);
}
