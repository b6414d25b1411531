import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DomainErrorFilter } from '@file-fields/nest';
import { BookshelfModule, type BookshelfSettings } from './bookshelf.module.js';

/** The bookshelf application, ready to listen. */
export async function createBookshelf(settings: BookshelfSettings): Promise<INestApplication> {
  const app = await NestFactory.create(BookshelfModule.forRoot(settings), { logger: ['error', 'warn'] });
  // The package's errors (404, 413, 415, 400 with each invalid field) as problem details.
  app.useGlobalFilters(new DomainErrorFilter());
  return app;
}
