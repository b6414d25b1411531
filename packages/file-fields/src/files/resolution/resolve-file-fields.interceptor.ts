import {
  Injectable,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { mergeMap, type Observable } from 'rxjs';
import { asJsonAnswer, jsonText, keepNotTheAnswerTo } from '../../read-cache/index.js';
import { FileFieldResolver } from './file-field.resolver.js';

/**
 * Resolves the `@FileField()` properties of every entity in a handler's answer (one entity, an array, a paginated
 * wrapper, or entities nested deeper) and writes the answer as JSON text. Bound only to the handlers that may answer
 * with such entities (see FileFieldResolutionModule), inside a kept-answer interceptor (ReadCacheInterceptor), which
 * it tells when an answer shows an image variant still being made, so that it is not kept.
 */
@Injectable()
export class ResolveFileFieldsInterceptor implements NestInterceptor {
  constructor(private readonly resolver: FileFieldResolver) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    return next.handle().pipe(mergeMap((body: unknown) => this.answer(context, body)));
  }

  private async answer(context: ExecutionContext, body: unknown): Promise<unknown> {
    // Nest sends anything but an object as text, and a StreamableFile as bytes: nothing to resolve there.
    if (typeof body !== 'object' || body === null || body instanceof StreamableFile) return body;
    const http = context.switchToHttp();
    if (!(await this.resolver.fill(body))) keepNotTheAnswerTo(http.getRequest<Request>());
    return asJsonAnswer(http.getResponse<Response>(), jsonText(body));
  }
}
