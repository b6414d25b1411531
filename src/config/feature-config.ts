import { registerAs } from '@nestjs/config';
import type { ClassConstructor } from 'class-transformer';
import { AppConfig, loadAppConfig } from './environment.js';
import { validateConfig } from './validate-config.js';

/**
 * A feature's settings: the class of its variables (validated when the module loads, and documented in
 * docs/configuration.md from it) and what the feature makes of them, given the app-wide values. Provide it with
 * `SettingsModule.forFeature(config)`, which injects {@link AppConfig} (read once); under ConfigModule.forFeature, or
 * called alone, it reads the app-wide values from the variables too.
 */
export function featureConfig<E extends object, T extends Record<string, unknown>>(
  key: string,
  schema: ClassConstructor<E>,
  settings: (env: E, app: AppConfig) => T,
) {
  /** The settings from the given variables (a bad value throws a message naming each bad variable). */
  const from = (raw: Record<string, unknown>, app: AppConfig = loadAppConfig(raw)): T =>
    settings(validateConfig(schema, raw), app);
  return Object.assign(
    registerAs(key, (app?: AppConfig) => from(process.env, app)),
    { schema, from },
  );
}
