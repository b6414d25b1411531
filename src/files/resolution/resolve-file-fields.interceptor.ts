import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnApplicationShutdown,
  type OnModuleInit,
  type Type,
} from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { from, mergeMap, type Observable } from 'rxjs';
import { RETURNS_NO_ENTITIES } from '../../common/http/returns-no-entities.js';
import { FileFieldResolver } from './file-field.resolver.js';

/** The Express application of a request → the resolver of the NestJS application it belongs to. */
const resolvers = new WeakMap<object, FileFieldResolver>();

/**
 * The one interceptor object bound to every handler that may return entities. NestJS keeps interceptor bindings on
 * the controller classes, which every application in a process shares, so the binding cannot name one application's
 * resolver: each request is resolved by the resolver of the application that received it (none: left as it is).
 */
const resolveFileFields: NestInterceptor = {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const resolver = context.getType() === 'http' && resolvers.get(context.switchToHttp().getRequest<Request>().app);
    if (!resolver) return next.handle();
    return next.handle().pipe(mergeMap((body: unknown) => from(resolver.resolveForJson(body))));
  },
};

/**
 * Resolves the `@FileField()` properties of every entity in every HTTP response (one entity, an array, a paginated
 * wrapper, or entities nested deeper), whichever controller returned it, except those marked
 * `@ReturnsNoEntities()`; the entities' dates are then written as their JSON (FileFieldResolver.resolveForJson).
 * Bound per handler rather than as a global interceptor: a global one puts every request, a token request included,
 * through NestJS's interceptor chain (about a fifth of a small request's time).
 */
@Injectable()
export class ResolveFileFieldsInterceptor implements OnModuleInit, OnApplicationShutdown {
  private application: object | undefined;

  constructor(
    private readonly resolver: FileFieldResolver,
    private readonly adapterHost: HttpAdapterHost,
    discovery: DiscoveryService,
  ) {
    // Before the router is registered: NestJS reads a handler's interceptors once, when it registers the route.
    for (const { metatype } of discovery.getControllers()) if (metatype) bindTo(metatype as Type);
  }

  /** From now on this application's responses are resolved (before it listens, after its HTTP adapter exists). */
  onModuleInit(): void {
    this.application = this.adapterHost.httpAdapter?.getInstance<object>();
    if (this.application) resolvers.set(this.application, this.resolver);
  }

  onApplicationShutdown(): void {
    if (this.application) resolvers.delete(this.application);
  }
}

/**
 * Puts {@link resolveFileFields} first among the controller's own interceptors, so that it sees the body the others
 * made, as a global interceptor would; on each handler instead when some handler of the controller is marked.
 * Binding twice (a second application in the process) changes nothing.
 */
function bindTo(controller: Type): void {
  if (Reflect.getMetadata(RETURNS_NO_ENTITIES, controller)) return;
  const handlers = handlersOf(controller);
  const marked = handlers.some((handler) => Reflect.getMetadata(RETURNS_NO_ENTITIES, handler));
  const targets = marked
    ? handlers.filter((handler) => !Reflect.getMetadata(RETURNS_NO_ENTITIES, handler))
    : [controller];
  for (const target of targets) {
    const bound = (Reflect.getMetadata(INTERCEPTORS_METADATA, target) as unknown[] | undefined) ?? [];
    if (!bound.includes(resolveFileFields)) {
      Reflect.defineMetadata(INTERCEPTORS_METADATA, [resolveFileFields, ...bound], target);
    }
  }
}

/** The methods of a controller, its base classes' included. */
function handlersOf(controller: Type): object[] {
  const handlers = new Set<object>();
  for (let prototype = controller.prototype as object; prototype !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const value = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (name !== 'constructor' && typeof value === 'function') handlers.add(value);
    }
    prototype = Object.getPrototypeOf(prototype) as object;
  }
  return [...handlers];
}
