/**
 * Benchmark peer (not a test): a bare NestJS + Express application with one GET route returning a small JSON object,
 * the floor for any route of the service. Listens on 127.0.0.1:$PORT; started with plain `node`.
 *
 * With BENCH_BARE_ADAPTER=service it is served by the service's own Express adapter (requests and responses created
 * with Express's prototypes; see src/common/http/express-adapter.ts) instead of Nest's stock one.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ServiceExpressAdapter } from '../../src/common/http/express-adapter.js';

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

const options = { logger: ['error', 'warn'] as Array<'error' | 'warn'> };
const app =
  process.env.BENCH_BARE_ADAPTER === 'service'
    ? await NestFactory.create(BareModule, new ServiceExpressAdapter(), options)
    : await NestFactory.create(BareModule, options);
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT), '127.0.0.1');
