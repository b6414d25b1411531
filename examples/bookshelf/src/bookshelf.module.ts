import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { FileFieldsModule, fileFieldsSchema, LocalDiskStorage, PermissionGuard } from '@file-fields/nest';
import { apiKeyAuthentication, type ApiKeys } from './api-keys.js';
import { Author } from './author.entity.js';
import { Book } from './book.entity.js';
import { Bookshelf1767225600000 } from './migrations/1767225600000-bookshelf.js';

export interface BookshelfSettings {
  /** Where the SQLite database and the files live. */
  dataDir: string;
  apiKeys: ApiKeys;
  /** The key that signs file URLs (32 bytes or more, the same on every instance). */
  urlSigningKey: Uint8Array;
}

@Module({})
export class BookshelfModule {
  static forRoot(settings: BookshelfSettings): DynamicModule {
    const authentication = apiKeyAuthentication(settings.apiKeys);
    @Module({})
    class Authentication implements NestModule {
      configure(consumer: MiddlewareConsumer): void {
        consumer.apply(authentication).forRoutes('*path');
      }
    }
    return {
      module: BookshelfModule,
      imports: [
        TypeOrmModule.forRoot({
          type: 'better-sqlite3',
          database: join(settings.dataDir, 'bookshelf.sqlite'),
          autoLoadEntities: true,
          migrations: [...(fileFieldsSchema.migrations ?? []), Bookshelf1767225600000],
          migrationsRun: true,
        }),
        FileFieldsModule.forRoot({
          storage: new LocalDiskStorage(join(settings.dataDir, 'files')),
          urlSigningKey: settings.urlSigningKey,
        }),
        // The types served: each gets its five routes, its permissions and its file fields.
        FileFieldsModule.forFeature({ types: [Author, Book] }),
        Authentication,
      ],
      providers: [{ provide: APP_GUARD, useClass: PermissionGuard }],
    };
  }
}
