import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { from, mergeMap, type Observable } from 'rxjs';
import { FileFieldResolver } from './file-field.resolver.js';

/**
 * Registered globally: resolves the `@FileField()` properties of every entity in every HTTP response,
 * whether the handler returns one entity, an array, a paginated wrapper, or entities nested deeper.
 */
@Injectable()
export class ResolveFileFieldsInterceptor implements NestInterceptor {
  constructor(private readonly resolver: FileFieldResolver) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    return next.handle().pipe(mergeMap((body: unknown) => from(this.resolver.resolve(body))));
  }
}
