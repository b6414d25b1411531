import type { ValidationError } from 'class-validator';
import { DomainError } from './domain-error.js';

export interface FieldViolation {
  field: string;
  messages: string[];
}

/** A request body or query that class-validator rejected; lists every offending field. */
export class ValidationFailedError extends DomainError {
  readonly status = 400;
  readonly code = 'validation-failed';
  readonly title = 'Validation failed';

  constructor(readonly violations: FieldViolation[]) {
    super(violations.map((v) => `${v.field}: ${v.messages.join(', ')}`).join('; '));
    this.extensions.errors = violations;
  }

  static fromValidationErrors(errors: ValidationError[], parent = ''): ValidationFailedError {
    return new ValidationFailedError(flatten(errors, parent));
  }
}

function flatten(errors: ValidationError[], parent: string): FieldViolation[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, messages: Object.values(error.constraints) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
