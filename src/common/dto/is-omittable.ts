import { ValidateIf } from 'class-validator';

/**
 * A field of a partial update that may be left out: validation is skipped only when it is absent, so an explicit
 * `null` is still refused by the field's validators (unlike `@IsOptional()`, which lets `null` through).
 */
export const IsOmittable = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
