import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, mergeMap, of, type Observable } from 'rxjs';
import { CACHEABLE_READ, ReadCache, readKey, type ReadStart } from '../../read-cache/index.js';
import { FileFieldResolver } from './file-field.resolver.js';

/**
 * Resolves the `@FileField()` properties of every entity in every HTTP response (one entity, an array, a paginated
 * wrapper, or entities nested deeper), whichever controller returned it: bound to the whole application
 * (APP_INTERCEPTOR, see FileFieldsModule). A GET of a handler marked `@CacheableRead()` is answered from the ReadCache
 * when it holds the answer, and its answer, resolved and written as JSON, is kept there when it may be.
 */
@Injectable()
export class ResolveFileFieldsInterceptor implements NestInterceptor {
  /** Each handler seen → the start of its kept answers' keys when it is marked `@CacheableRead()`, else false. */
  private readonly readKeys = new WeakMap<Function, string | false>();
  private handlersMarked = 0;

  constructor(
    private readonly resolver: FileFieldResolver,
    private readonly reads: ReadCache,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const handlerKey = this.readKeyOf(context.getHandler());
    if (!handlerKey || !this.reads.enabled || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return next.handle().pipe(mergeMap((body: unknown) => this.resolver.resolve(body)));
    }
    const response = context.switchToHttp().getResponse<Response>();
    const key = readKey(handlerKey, request.user?.scopes, request.originalUrl);
    return from(this.reads.start(key)).pipe(
      mergeMap((start) =>
        start.kept !== undefined
          ? of(asJson(response, start.kept))
          : next.handle().pipe(mergeMap((body: unknown) => this.answer(response, start, body))),
      ),
    );
  }

  /** The body resolved, as JSON text, kept for the next requests when every file record it shows is final. */
  private async answer(response: Response, start: ReadStart, body: unknown): Promise<unknown> {
    // Nest sends anything but an object as text, not as JSON: such an answer is not kept.
    if (typeof body !== 'object' || body === null) return this.resolver.resolve(body);
    const final = await this.resolver.fill(body);
    const text = JSON.stringify(body);
    if (final) await this.reads.keep(start, text);
    return asJson(response, text);
  }

  /** The handler's part of its kept answers' keys (a number of its own), decided once per handler. */
  private readKeyOf(handler: Function): string | false {
    let key = this.readKeys.get(handler);
    if (key === undefined) {
      key =
        this.reflector.get<boolean | undefined>(CACHEABLE_READ, handler) === true
          ? String(++this.handlersMarked)
          : false;
      this.readKeys.set(handler, key);
    }
    return key;
  }
}

/** A JSON text that Nest sends as it is (a string), typed as res.json types a body. */
function asJson(response: Response, text: string): string {
  response.setHeader('Content-Type', 'application/json');
  return text;
}
