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
    const own = error.constraints ? [{ field, messages: messagesOf(error) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * A property left out breaks every rule it has, and class-validator reports them last-declared first ("must be
 * shorter than or equal to 200 characters" before "should not be empty"): say only that it is required. The rules a
 * present value breaks are listed in the order they are declared (decorators apply bottom-up).
 */
function messagesOf(error: ValidationError): string[] {
  // An optional property left out is never validated, so one that is reported here is required.
  if (error.value === undefined && !error.children?.length) return [`${error.property} is required`];
  return Object.values(error.constraints ?? {}).reverse();
}
