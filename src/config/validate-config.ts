import { plainToInstance, Transform, type ClassConstructor } from 'class-transformer';
import { Logger } from '@nestjs/common';
import { IsInt, Max, Min, ValidateBy, validateSync, type ValidationOptions } from 'class-validator';
import { parseDuration, parseDurationList } from '../common/duration.js';
import { upgradeFormerForms } from './former-forms.js';

/** A duration's milliseconds; a bare `0` is zero in any unit. Undefined when malformed. */
function readDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  return value.trim() === '0' ? 0 : parseDuration(value);
}

/** Reads `"42"` as 42 for numeric variables (anything else is left for the validators to refuse). */
const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;

/** A duration such as `500ms`, `15s`, `5m`, `2h` or `1d` (the one format every duration variable uses), or `0`. */
export function IsDuration(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDuration',
      validator: {
        validate: (value: unknown) => readDuration(value) !== undefined,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be a duration like 15s (units ms, s, m, h, d)`,
      },
    },
    options,
  );
}

/** A duration from `min` to `max` (both included, written as durations); a malformed one is left to IsDuration. */
export function IsDurationWithin(min: string, max?: string): PropertyDecorator {
  const [low, high] = [durationMs(min), max === undefined ? Infinity : durationMs(max)];
  return ValidateBy({
    name: 'isDurationWithin',
    validator: {
      validate: (value: unknown) => {
        const ms = readDuration(value);
        return ms === undefined || (ms >= low && ms <= high);
      },
      defaultMessage: (args) =>
        `${args?.property ?? 'value'} must be ${max === undefined ? `at least ${min}` : `from ${min} to ${max}`}`,
    },
  });
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
  const ms = readDuration(text);
  if (ms === undefined) throw new Error(`Not a duration: ${JSON.stringify(text)}`);
  return ms;
}

/** Whole seconds of a duration that was validated with {@link IsDuration} (for settings counted in seconds). */
export function durationSeconds(text: string): number {
  return Math.floor(durationMs(text) / 1000);
}

/** Milliseconds of a list that was validated with {@link IsDurationList}. */
export function durationListMs(text: string): number[] {
  const list = parseDurationList(text);
  if (list === undefined) throw new Error(`Not a list of durations: ${JSON.stringify(text)}`);
  return list;
}

const warned = new Set<string>();
const logger = new Logger('Configuration');

/** Logs a warning once per process: every module that reads the variables would otherwise repeat it. */
function warnOnce(warning: string): void {
  if (warned.has(warning)) return;
  warned.add(warning);
  logger.warn(warning);
}

/**
 * Validates one module's variables against its class (defaults are the class's initial values, written once),
 * throwing one message that names every bad variable. Empty values count as unset. Former forms of a variable (see
 * upgradeFormerForms) are read as the new one, each with a warning naming the form to use.
 */
export function validateConfig<T extends object>(
  schema: ClassConstructor<T>,
  raw: Record<string, unknown>,
  warn: (warning: string) => void = warnOnce,
): T {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  const { variables, formerNames, warnings } = upgradeFormerForms(schema, defined);
  warnings.forEach(warn);
  const env = plainToInstance(schema, variables, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  if (errors.length > 0) {
    const named = (property: string) => {
      const former = formerNames.get(property);
      return former === undefined ? property : `${former} (read as ${property})`;
    };
    const lines = errors.map(
      (e) => `${named(e.property)}: ${Object.values(e.constraints ?? {}).join('; ')} (got ${JSON.stringify(e.value)})`,
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
