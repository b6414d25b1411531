import type { ClassConstructor } from 'class-transformer';
import { settingsOf } from './setting.js';

const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
] as const;

/** Whole seconds in the largest unit that counts them exactly: 3600 → `1h`, 90 → `90s`, 0 → `0s`. */
export function secondsAsDuration(seconds: number): string {
  for (const [unit, size] of UNITS) if (seconds > 0 && seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

/** The variables as a settings class reads them, with what was rewritten from a former form. */
interface UpgradedVariables {
  variables: Record<string, unknown>;
  /** Per variable taken from a former name, that name (for error messages about a value the operator wrote there). */
  formerNames: Map<string, string>;
  /** One sentence per former form met, naming the form to use instead. */
  warnings: string[];
}

const isBareNumber = (value: unknown): value is string => typeof value === 'string' && /^\s*\d+\s*$/.test(value);

/**
 * Reads the former forms the class's settings declare ({@link SettingInfo.formerly}, {@link SettingInfo.bareSeconds}):
 * a former name gives its value to the new one unless that is set too; a bare number of seconds becomes a duration.
 */
export function upgradeFormerForms(schema: ClassConstructor<object>, raw: Record<string, unknown>): UpgradedVariables {
  const variables = { ...raw };
  const formerNames = new Map<string, string>();
  const warnings: string[] = [];
  for (const [name, info] of settingsOf(schema)) {
    const former = info.formerly;
    if (former !== undefined && variables[former] !== undefined) {
      const value = variables[former];
      delete variables[former];
      if (variables[name] !== undefined) {
        warnings.push(`${former} is deprecated and ignored: ${name} is set`);
        continue;
      }
      // A former name always counted seconds.
      variables[name] = isBareNumber(value) ? secondsAsDuration(Number(value)) : value;
      formerNames.set(name, former);
      warnings.push(`${former} is deprecated: use ${name}=${String(variables[name])}`);
    } else if (info.bareSeconds && isBareNumber(variables[name]) && Number(variables[name]) !== 0) {
      const duration = secondsAsDuration(Number(variables[name]));
      warnings.push(`${name}=${String(variables[name]).trim()} (seconds) is deprecated: use ${name}=${duration}`);
      variables[name] = duration;
    }
  }
  return { variables, formerNames, warnings };
}
