import { ValidationPipe, type ArgumentMetadata, type Type } from '@nestjs/common';
import { deepFreeze } from '../deep-freeze.js';
import { ValidationFailedError } from '../errors/validation-failed.error.js';

/** Query strings whose outcome a pipe keeps, per DTO class (all dropped when full); longer ones are never kept. */
const QUERY_MEMO_LIMIT = 1_000;
const QUERY_MEMO_MAX_LENGTH = 512;

/**
 * A ValidationPipe that validates a query string it has already accepted once only: a list's `?limit=50` comes with
 * every request, and class-transformer with class-validator took a twentieth of a list's CPU. Sound because the
 * rules of the DTOs are synchronous and depend on the value alone. Only accepted values are kept, frozen; each
 * request gets its own copy of the DTO.
 */
class ServiceValidationPipe extends ValidationPipe {
  private readonly accepted = new Map<Type<unknown>, Map<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    const key = metadata.type === 'query' && metatype && this.toValidate(metadata) ? JSON.stringify(value) : undefined;
    if (!metatype || key === undefined || key.length > QUERY_MEMO_MAX_LENGTH) return super.transform(value, metadata);
    let accepted = this.accepted.get(metatype);
    if (!accepted || accepted.size >= QUERY_MEMO_LIMIT) {
      accepted = new Map<string, object>();
      this.accepted.set(metatype, accepted);
    }
    let dto = accepted.get(key);
    if (!dto) {
      dto = deepFreeze((await super.transform(value, metadata)) as object);
      accepted.set(key, dto);
    }
    return Object.assign(Object.create(Object.getPrototypeOf(dto) as object | null) as object, dto);
  }
}

/**
 * The one validation setup: unknown properties are refused, values are converted to the DTO's types,
 * and failures become a 400 problem listing every field. `expectedType` serves generic handlers.
 */
export function createValidationPipe(expectedType?: Type<unknown>): ValidationPipe {
  return new ServiceValidationPipe({
    expectedType,
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => ValidationFailedError.fromValidationErrors(errors),
  });
}
