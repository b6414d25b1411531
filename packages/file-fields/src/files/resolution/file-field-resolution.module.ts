import { Logger, Module, UseInterceptors, type NestModule } from '@nestjs/common';
import { INTERCEPTORS_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryModule, DiscoveryService, MetadataScanner, ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ReadCacheInterceptor } from '../../read-cache/index.js';
import { getFileFields } from '../fields/file-field.decorator.js';
import { mayAnswerWithFileFields, schemaNameOf } from './declared-response.js';
import { ResolveFileFieldsInterceptor } from './resolve-file-fields.interceptor.js';

/**
 * Binds {@link ResolveFileFieldsInterceptor} to each route handler of the application that may answer with an entity
 * that has `@FileField()` properties (see mayAnswerWithFileFields), and to no other: a route that cannot show a file
 * field runs no interceptor for it. Decided once per handler, in `configure()`, which NestJS runs before it registers
 * the routes (and reads each handler's interceptors).
 */
@Module({ imports: [DiscoveryModule] })
export class FileFieldResolutionModule implements NestModule {
  private readonly logger = new Logger('FileFields');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly moduleRef: ModuleRef,
  ) {}

  configure(): void {
    // FileFieldsModule provides it: this module is one of its imports.
    const interceptor = this.moduleRef.get(ResolveFileFieldsInterceptor, { strict: false });
    const schemaNames = this.fileFieldSchemaNames();
    const bound: string[] = [];
    for (const { metatype } of this.discovery.getControllers()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, Function>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[method];
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        if (!mayAnswerWithFileFields(metatype, method, schemaNames)) continue;
        bindTo(handler, interceptor);
        bound.push(`${metatype.name}.${method}`);
      }
    }
    this.logger.debug(`File fields resolved on ${bound.length} handlers: ${bound.join(', ')}`);
  }

  /** The OpenAPI names of the application's entities with file fields, for responses declared by `$ref`. */
  private fileFieldSchemaNames(): Set<string> {
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    return new Set(
      dataSource.entityMetadatas
        .map((metadata) => metadata.target)
        .filter((target): target is Function => typeof target === 'function' && getFileFields(target).length > 0)
        .map(schemaNameOf),
    );
  }
}

/**
 * Puts the application's interceptor on the handler with the public `UseInterceptors()`, inside the interceptors it
 * declares after a kept answer (ReadCacheInterceptor, via `@CacheableRead()`), outside the others, as an application-wide
 * interceptor would be. An instance, not the class: the class would need to be an injectable of the controller's
 * module, which the scan that registers them has passed. Another application of the process (sharing the controller
 * class) puts its own in place of this one before it registers its routes; routes keep the interceptors they were
 * registered with.
 */
function bindTo(handler: Function, interceptor: ResolveFileFieldsInterceptor): void {
  const declared = ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as Array<Function | object>).filter(
    (entry) => !(entry instanceof ResolveFileFieldsInterceptor),
  );
  const outside = declared.filter((entry) => entry === ReadCacheInterceptor);
  const inside = declared.filter((entry) => entry !== ReadCacheInterceptor);
  Reflect.defineMetadata(INTERCEPTORS_METADATA, [], handler);
  UseInterceptors(...(outside as Function[]), interceptor, ...(inside as Function[]))(handler, handler.name, {
    value: handler,
  });
}
