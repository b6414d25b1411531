import { auditConfig } from './audit/index.js';
import { Environment } from './config/environment.js';
import { renderSettings, withGeneratedPart, type SettingsGroup } from './config/settings-table.js';
import { filesConfig } from './files/index.js';
import { tokenConfig } from './token/index.js';
import { webhooksConfig } from './webhooks/index.js';

/** Every settings class, in the order docs/configuration.md lists them. */
export const SETTINGS_GROUPS: SettingsGroup[] = [
  { title: 'Service', schema: Environment },
  { title: 'Files and storage', schema: filesConfig.schema },
  { title: 'Tokens and sign-in', schema: tokenConfig.schema },
  { title: 'Webhooks', schema: webhooksConfig.schema },
  { title: 'Audit trail', schema: auditConfig.schema },
];

/** docs/configuration.md as `npm run docs:config` writes it: `current` with its tables generated anew. */
export function configurationDocument(current: string): string {
  return withGeneratedPart(current, renderSettings(SETTINGS_GROUPS));
}
