import type { ClassConstructor } from 'class-transformer';

/** What docs/configuration.md says of one environment variable, and the older forms of it still read. */
export interface SettingInfo {
  /** Its meaning: one cell of the table in docs/configuration.md (Markdown, one line). */
  doc: string;
  /** The default as the table shows it, when the class's initial value does not tell it (unset, derived). */
  shownDefault?: string;
  /** A tuning knob most deployments never touch: listed under "Rarely needed". */
  rarelyNeeded?: boolean;
  /** The name the variable had when it was a number of seconds; still read, with a warning naming the new form. */
  formerly?: string;
  /** The variable was once a bare number of seconds: such a value still counts seconds, with a warning. */
  bareSeconds?: boolean;
}

const settings = new WeakMap<object, Map<string, SettingInfo>>();

/** Documents an environment variable of a settings class (see {@link SettingInfo}); every variable has one. */
export function Setting(info: SettingInfo): PropertyDecorator {
  return (target, property) => {
    const owner = target.constructor;
    const own = settings.get(owner) ?? new Map<string, SettingInfo>();
    own.set(String(property), info);
    settings.set(owner, own);
  };
}

/** The documented variables of a settings class, in the order they are declared. */
export function settingsOf(schema: ClassConstructor<object>): ReadonlyMap<string, SettingInfo> {
  return settings.get(schema) ?? new Map();
}
