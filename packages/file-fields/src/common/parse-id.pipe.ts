import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { DomainError } from '../errors/domain-error.js';

export class InvalidIdError extends DomainError {
  readonly status = 400;
  readonly code = 'invalid-id';
  readonly title = 'Invalid identifier';
}

const MAX_ID = 2_147_483_647;

/**
 * Accepts only a positive integer that fits the database's integer ids; anything else is a 400.
 * The global validation pipe may already have turned the string into a number (NaN for garbage).
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string | number, number> {
  transform(value: string | number, metadata: ArgumentMetadata): number {
    const text = String(value);
    const id = /^[1-9]\d{0,9}$/.test(text) ? Number(text) : NaN;
    if (!(id <= MAX_ID)) {
      throw new InvalidIdError(`${metadata.data ?? 'id'} must be a positive integer no larger than ${MAX_ID}.`);
    }
    return id;
  }
}
