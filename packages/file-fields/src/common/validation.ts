import { ValidationPipe, type Type } from '@nestjs/common';
import { ValidationFailedError } from '../errors/validation-failed.error.js';

/**
 * The one validation setup: unknown properties are refused, values are converted to the DTO's types,
 * and failures become a 400 problem listing every field. `expectedType` serves generic handlers.
 */
export function createValidationPipe(expectedType?: Type<unknown>): ValidationPipe {
  return new ValidationPipe({
    expectedType,
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => ValidationFailedError.fromValidationErrors(errors),
  });
}
