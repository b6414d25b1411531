import { plainToInstance, Transform, type ClassConstructor } from 'class-transformer';
import { IsInt, Max, Min, ValidateBy, validateSync, type ValidationOptions } from 'class-validator';
import { parseDuration, parseDurationList } from '../common/duration.js';

/** Reads `"42"` as 42 for numeric variables (anything else is left for the validators to refuse). */
export const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;

/** A duration such as `500ms`, `15s`, `5m`, `2h` or `1d` (the one format every duration variable uses). */
export function IsDuration(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDuration',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseDuration(value) !== undefined,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be a duration like 15s (units ms, s, m, h, d)`,
      },
    },
    options,
  );
}

/** A comma-separated list of durations such as `5s,5m,2h`. */
export function IsDurationList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDurationList',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseDurationList(value) !== undefined,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be durations like 5s,5m,2h (units ms, s, m, h, d)`,
      },
    },
    options,
  );
}

/** Milliseconds of a duration that was validated with {@link IsDuration}. */
export function durationMs(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`Not a duration: ${JSON.stringify(text)}`);
  return ms;
}

/** Milliseconds of a list that was validated with {@link IsDurationList}. */
export function durationListMs(text: string): number[] {
  const list = parseDurationList(text);
  if (list === undefined) throw new Error(`Not a list of durations: ${JSON.stringify(text)}`);
  return list;
}

/**
 * Validates one module's variables against its class (defaults are the class's initial values, written once),
 * throwing one message that names every bad variable. Empty values count as unset.
 */
export function validateConfig<T extends object>(schema: ClassConstructor<T>, raw: Record<string, unknown>): T {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  const env = plainToInstance(schema, defined, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')} (got ${JSON.stringify(e.value)})`,
    );
    throw new Error(`Invalid environment configuration:\n  ${lines.join('\n  ')}`);
  }
  return env;
}

/**
 * A whole-number variable within bounds, read from its text: the `@Transform(toInt) @IsInt() @Min() @Max()` stack
 * every numeric variable needs, so a module cannot forget the transform and refuse every value it is given.
 */
export function IsIntVariable(min: number, max?: number): PropertyDecorator {
  const stack = [Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)])];
  // Applied bottom-up, as stacked decorators are, so the messages keep the order they had when written out.
  const bottomUp = stack.reverse();
  return (target, property) => {
    for (const decorator of bottomUp) decorator(target, property);
  };
}
