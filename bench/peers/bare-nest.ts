/**
 * Benchmark peer (not a test): a bare NestJS + Express application with one GET route returning a small JSON object,
 * the floor for any route of the service. Listens on 127.0.0.1:$PORT; started with plain `node`.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The one route. */
@Controller()
class BareController {
  @Get('bare')
  bare(): { id: number; name: string; active: boolean } {
    return { id: 1, name: 'bare', active: true };
  }
}

/** The whole application. */
@Module({ controllers: [BareController] })
class BareModule {}

const app = await NestFactory.create(BareModule, { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT), '127.0.0.1');
