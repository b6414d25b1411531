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
import type { Express, Request } from 'express';
import { from, mergeMap, of, type Observable } from 'rxjs';
import { JsonBytes, sendsJsonBytes } from '../../common/http/json-text.js';
import { RETURNS_NO_ENTITIES } from '../../common/http/returns-no-entities.js';
import { FileFieldResolver } from './file-field.resolver.js';
import { CACHEABLE_READ, ReadCache, type ReadStart } from './read-cache.js';

/** What an application's responses are resolved with; `reads` only when its answers may be kept. */
interface Resolution {
  resolver: FileFieldResolver;
  reads: ReadCache | undefined;
}

/** The Express application of a request → how the NestJS application it belongs to resolves responses. */
const resolutions = new WeakMap<object, Resolution>();

/** Each handler marked `@CacheableRead()` → the start of its answers' keys (its number); others → false. */
const readKeys = new WeakMap<object, string | false>();
let handlersSeen = 0;

function readKeyOf(handler: object): string | false {
  let key = readKeys.get(handler);
  if (key === undefined) {
    key = Reflect.getMetadata(CACHEABLE_READ, handler) === true ? `${++handlersSeen} ` : false;
    readKeys.set(handler, key);
  }
  return key;
}

/**
 * The one interceptor object bound to every handler that may return entities. NestJS keeps interceptor bindings on
 * the controller classes, which every application in a process shares, so the binding cannot name one application's
 * resolver: each request is resolved by the resolver of the application that received it (none: left as it is).
 * A GET of a handler marked `@CacheableRead()` is answered from the application's ReadCache when it holds the answer.
 */
const resolveFileFields: NestInterceptor = {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const resolution = resolutions.get(request.app);
    if (!resolution) return next.handle();
    const { resolver, reads } = resolution;
    const readKey = reads && (request.method === 'GET' || request.method === 'HEAD') && readKeyOf(context.getHandler());
    if (!reads || !readKey) return next.handle().pipe(mergeMap((body: unknown) => from(resolver.resolveForJson(body))));
    return from(reads.start(readKey + request.originalUrl)).pipe(
      mergeMap((start) =>
        start.kept
          ? of(new JsonBytes(start.kept))
          : next.handle().pipe(mergeMap((body: unknown) => from(answer(resolver, reads, start, body)))),
      ),
    );
  },
};

/** The body resolved, as JSON bytes, kept for the next requests when they may be (see ReadCache.keep). */
async function answer(resolver: FileFieldResolver, reads: ReadCache, start: ReadStart, body: unknown) {
  // Nest sends anything but an object as text, not as JSON: such an answer is not kept.
  if (typeof body !== 'object' || body === null) return resolver.resolveForJson(body);
  const { text, final } = await resolver.resolveToJsonText(body);
  if (text === undefined) return body;
  const bytes = Buffer.from(text);
  if (final) await reads.keep(start, bytes);
  return new JsonBytes(bytes);
}

/**
 * Resolves the `@FileField()` properties of every entity in every HTTP response (one entity, an array, a paginated
 * wrapper, or entities nested deeper), whichever controller returned it, except those marked
 * `@ReturnsNoEntities()`; the entities' dates are then written as their JSON (FileFieldResolver.resolveForJson).
 * Bound per handler rather than as a global interceptor: a global one puts every request, a token request included,
 * through NestJS's interceptor chain (about a fifth of a small request's time).
 */
@Injectable()
export class ResolveFileFieldsInterceptor implements OnModuleInit, OnApplicationShutdown {
  private application: Express | undefined;

  constructor(
    private readonly resolver: FileFieldResolver,
    private readonly reads: ReadCache,
    private readonly adapterHost: HttpAdapterHost,
    discovery: DiscoveryService,
  ) {
    // Before the router is registered: NestJS reads a handler's interceptors once, when it registers the route.
    for (const { metatype } of discovery.getControllers()) if (metatype) bindTo(metatype as Type);
  }

  /** From now on this application's responses are resolved (before it listens, after its HTTP adapter exists). */
  onModuleInit(): void {
    const application = (this.application = this.adapterHost.httpAdapter?.getInstance<Express>());
    if (!application) return;
    // Kept answers go out as JsonBytes, which only the service's Express adapter sends as they are.
    const keeps = this.reads.enabled && sendsJsonBytes(application);
    resolutions.set(application, { resolver: this.resolver, reads: keeps ? this.reads : undefined });
  }

  onApplicationShutdown(): void {
    if (this.application) resolutions.delete(this.application);
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
