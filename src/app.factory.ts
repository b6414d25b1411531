import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { applyHttpLimits, useSafeResponseDefaults } from './common/http/http-limits.js';
import { AppConfig } from './config/environment.js';

/** Builds the application exactly as it runs in production; tests use the same factory. */
export async function createApp(): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.enableShutdownHooks();
  const config = app.get(AppConfig);
  // Behind a proxy, the client's address (limits, logs) comes from X-Forwarded-For, from trusted proxies only.
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  applyHttpLimits(app, config.http);
  useSafeResponseDefaults(app);
  setupOpenApi(app);
  return app;
}

function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('File fields service')
    .setDescription('Uploads files to entity fields, resolves them on every entity response.')
    .setVersion('1')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}
