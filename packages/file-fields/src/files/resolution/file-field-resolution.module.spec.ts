import 'reflect-metadata';
import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ApiOkResponse, ApiProperty } from '@nestjs/swagger';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { FileField } from '../fields/file-field.decorator.js';
import type { FileFieldResolver } from './file-field.resolver.js';
import { FileFieldResolutionModule } from './file-field-resolution.module.js';
import { ResolveFileFieldsInterceptor } from './resolve-file-fields.interceptor.js';

class Card {
  @ApiProperty() id!: number;
  @FileField() picture?: unknown;
}

class Total {
  @ApiProperty() count!: number;
}

@Controller()
class CardsController {
  @Get('card')
  @ApiOkResponse({ type: Card })
  card(): Card {
    return Object.assign(new Card(), { id: 1 });
  }

  @Get('total')
  @ApiOkResponse({ type: Total })
  total(): Total {
    return { count: 1 };
  }
}

describe('FileFieldResolutionModule', () => {
  let app: INestApplication;
  const resolver = {
    fill: (body: Record<string, unknown>) => {
      body.picture = null;
      return Promise.resolve(true);
    },
  };

  beforeAll(async () => {
    @Module({
      imports: [FileFieldResolutionModule],
      controllers: [CardsController],
      providers: [
        {
          provide: ResolveFileFieldsInterceptor,
          useValue: new ResolveFileFieldsInterceptor(resolver as unknown as FileFieldResolver),
        },
        { provide: DataSource, useValue: { entityMetadatas: [] } },
      ],
    })
    class CardsModule {}
    const moduleRef = await Test.createTestingModule({ imports: [CardsModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('binds the resolution, before the routes are registered, to the handlers that declare an entity with file fields only', async () => {
    expect((await request(app.getHttpServer()).get('/card').expect(200)).text).toBe('{"id":1,"picture":null}');
    expect((await request(app.getHttpServer()).get('/total').expect(200)).body).toEqual({ count: 1 });
    const interceptors = (method: keyof CardsController) =>
      Reflect.getMetadata('__interceptors__', CardsController.prototype[method]) as unknown[] | undefined;
    expect(interceptors('card')).toEqual([expect.any(ResolveFileFieldsInterceptor)]);
    expect(interceptors('total')).toBeUndefined();
  });
});
