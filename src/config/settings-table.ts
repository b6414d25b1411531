import type { ClassConstructor } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { settingsOf, type SettingInfo } from './setting.js';

/** The variables of one settings class, under one heading of docs/configuration.md. */
export interface SettingsGroup {
  title: string;
  schema: ClassConstructor<object>;
}

/** Where the generated part of docs/configuration.md begins and ends: the prose around it is written by hand. */
const GENERATED_BEGIN =
  '<!-- Generated from the settings classes by `npm run docs:config` (edit them, not this part): begin -->';
const GENERATED_END = '<!-- Generated from the settings classes: end -->';

interface Row {
  name: string;
  info: SettingInfo;
  /** The class's initial value: what the environment holds, a string or a number, as written. */
  initial?: string | number;
}

/** Every validated variable of the class with its documentation; a variable without one stops the generation. */
function rowsOf({ title, schema }: SettingsGroup): Row[] {
  const documented = settingsOf(schema);
  const validated = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(schema, '', true, false)
      .map((metadata) => metadata.propertyName),
  );
  const undocumented = [...validated].filter((name) => !documented.has(name));
  if (undocumented.length > 0) {
    throw new Error(`${title}: ${undocumented.join(', ')} without @Setting() (every variable is documented)`);
  }
  const initial = new schema() as Record<string, string | number | undefined>;
  return [...documented].map(([name, info]) => ({ name, info, initial: initial[name] }));
}

function shownDefault({ info, initial }: Row): string {
  if (info.shownDefault !== undefined) return info.shownDefault;
  return initial === undefined ? 'unset' : `\`${initial}\``;
}

/** A Markdown table laid out as Prettier lays it out, so that the generated file passes `prettier --check`. */
function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(3, cell.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

function table(rows: Row[]): string {
  return markdownTable(
    ['Variable', 'Default', 'Meaning'],
    rows.map((row) => [`\`${row.name}\``, shownDefault(row), row.info.doc]),
  );
}

/** The generated part: a table per group, the tuning knobs of every group under "Rarely needed", the former forms. */
export function renderSettings(groups: SettingsGroup[]): string {
  const grouped = groups.map((group) => ({ title: group.title, rows: rowsOf(group) }));
  const parts: string[] = [];
  for (const { title, rows } of grouped) {
    const common = rows.filter((row) => !row.info.rarelyNeeded);
    if (common.length > 0) parts.push(`### ${title}`, table(common));
  }
  const rare = grouped.flatMap(({ rows }) => rows.filter((row) => row.info.rarelyNeeded));
  parts.push(
    '## Rarely needed',
    'Tuning knobs: limits, timeouts and intervals whose defaults suit most deployments.',
    table(rare),
  );
  const all = grouped.flatMap(({ rows }) => rows);
  const renamed = all.filter((row) => row.info.formerly !== undefined);
  const bareSeconds = all.filter((row) => row.info.bareSeconds);
  parts.push(
    '## Former forms',
    'Every duration is written with its unit (`ms`, `s`, `m`, `h`, `d`). The forms of earlier versions are still\n' +
      'read, each with a warning at start naming the form to use:',
    [
      ...renamed.map((row) => `- \`${row.info.formerly}\`, in seconds: now \`${row.name}\`, a duration.`),
      ...bareSeconds.map((row) => `- \`${row.name}\` as a bare number: seconds, as before.`),
    ].join('\n'),
  );
  return parts.join('\n\n');
}

/** `document` with its generated part replaced by `generated`; the markers must be there. */
export function withGeneratedPart(document: string, generated: string): string {
  const begin = document.indexOf(GENERATED_BEGIN);
  const end = document.indexOf(GENERATED_END);
  if (begin < 0 || end < begin) throw new Error(`The markers ${GENERATED_BEGIN} … ${GENERATED_END} are missing`);
  return `${document.slice(0, begin + GENERATED_BEGIN.length)}\n\n${generated}\n\n${document.slice(end)}`;
}
