import {
  Injectable,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, mergeMap, of, type Observable } from 'rxjs';
import { asJsonAnswer, jsonText } from './json-text.js';
import { ReadCache, readKey, type ReadStart } from './read-cache.js';

/** Requests whose answer shows something still changing: it is sent, not kept (see {@link keepNotTheAnswerTo}). */
const unsettled = new WeakSet<object>();

/**
 * For what runs inside {@link ReadCacheInterceptor} (file-field resolution): the answer to this request shows data
 * that will change without a write (an image variant still being made), so it must not be kept.
 */
export function keepNotTheAnswerTo(request: object): void {
  unsettled.add(request);
}

/** Each `@CacheableRead()` handler → its part of the keys, unique in the process (one ReadCache may serve many). */
const handlerKeys = new WeakMap<Function, string>();
let handlersMarked = 0;

/**
 * Answers a GET or HEAD of a `@CacheableRead()` handler from the {@link ReadCache} when it keeps the answer for the
 * URL and the caller's permissions, and keeps the JSON text of an answer made anew. Bound to those handlers only (see
 * CacheableRead), outside what post-processes their answers, so a kept answer skips that too.
 */
@Injectable()
export class ReadCacheInterceptor implements NestInterceptor {
  constructor(private readonly reads: ReadCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.reads.enabled) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (request.method !== 'GET' && request.method !== 'HEAD') return next.handle();
    const response = http.getResponse<Response>();
    const key = readKey(keyOf(context.getHandler()), request.user?.scopes, request.originalUrl);
    return from(this.reads.start(key)).pipe(
      mergeMap((start) =>
        start.kept !== undefined
          ? of(asJsonAnswer(response, start.kept))
          : next.handle().pipe(mergeMap((body: unknown) => this.answer(request, response, start, body))),
      ),
    );
  }

  /** The answer as JSON text, kept when it is JSON and nothing it shows is still changing. */
  private async answer(request: Request, response: Response, start: ReadStart, body: unknown): Promise<unknown> {
    let text: string;
    if (typeof body === 'string') {
      // JSON text written inside (by the file-field resolution); any other string Nest sends as text: not kept.
      if (!String(response.getHeader('Content-Type') ?? '').startsWith('application/json')) return body;
      text = body;
    } else if (typeof body === 'object' && body !== null && !(body instanceof StreamableFile)) {
      text = asJsonAnswer(response, jsonText(body));
    } else {
      return body;
    }
    if (!unsettled.has(request)) await this.reads.keep(start, text);
    return text;
  }
}

function keyOf(handler: Function): string {
  let key = handlerKeys.get(handler);
  if (key === undefined) handlerKeys.set(handler, (key = String(++handlersMarked)));
  return key;
}
