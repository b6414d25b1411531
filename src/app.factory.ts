import 'reflect-metadata';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { serveAdminUi } from './admin-ui/admin-ui.js';
import { AppModule } from './app.module.js';
import { entrance } from './common/http/entrance.js';
import { applyHttpLimits, disableBodyEtags } from './common/http/http-limits.js';
import { AppLogger } from './common/logging/app-logger.js';
import { createLogger } from './common/logging/log-lines.js';
import { chooseLogFormat, FrameworkNarrationAtDebug } from './common/logging/log-output.js';
import { RequestLog } from './common/logging/request-log.js';
import { serveApiDocs } from './api-docs/api-docs.js';
import type { CommittedOpenApi } from './api-docs/committed-document.js';
import { AppConfig } from './config/environment.js';
import { filesConfig, type FilesConfig } from './files/index.js';
import { tokenConfig, type TokenConfig } from './token/index.js';

/**
 * Builds the application exactly as it runs in production; tests use the same factory. Signals are the process's
 * business: main.ts stops the application on them.
 *
 * Every request passes one app-wide layer (the entrance: its id and log line, the response defaults, its body's
 * deadline); the icon, the administration UI and the API document are routes of their own. The root module is the
 * service's, or one that imports it beside more (a test adding a catalog type), which serves its own API document.
 */
export async function createApp(root: Type = AppModule, apiDocument?: CommittedOpenApi): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(root, {
    bufferLogs: true,
    // JSON and form bodies are read after authentication, by BodyParsingGuard.
    bodyParser: false,
  });
  const config = app.get(AppConfig);
  const logger = createLogger(config);
  app.useLogger(new FrameworkNarrationAtDebug(new AppLogger(logger)));
  app.disable('x-powered-by');
  // Behind a proxy, the client's address (limits, logs) comes from X-Forwarded-For, from trusted proxies only.
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  applyHttpLimits(app, config.http);
  disableBodyEtags(app);
  const json = chooseLogFormat(config.logFormat, process.stdout.isTTY === true) === 'json';
  app.use(entrance(new RequestLog(logger, json), config.http.bodyTimeoutMs));
  const express = app.getHttpAdapter().getInstance();
  const { issuer } = app.get<TokenConfig>(tokenConfig.KEY);
  serveApiDocs(express, issuer, apiDocument);
  serveAdminUi(express, app.get<FilesConfig>(filesConfig.KEY), issuer);
  return app;
}
