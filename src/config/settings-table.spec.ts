import { IsIn, IsOptional, IsString } from 'class-validator';
import { Setting } from './setting.js';
import { renderSettings, withGeneratedPart } from './settings-table.js';
import { IsDuration, IsIntVariable } from './validate-config.js';

class Storage {
  @Setting({ doc: 'Where files go' })
  @IsIn(['local', 's3'])
  DRIVER = 'local';

  @Setting({ doc: 'Bucket name', shownDefault: 'unset (needed with `s3`)' })
  @IsOptional()
  @IsString()
  BUCKET?: string;

  @Setting({ doc: 'How often to sweep', formerly: 'SWEEP_SECONDS', rarelyNeeded: true })
  @IsDuration()
  SWEEP = '1h';
}

class Tokens {
  @Setting({ doc: 'Lifetime', bareSeconds: true })
  @IsDuration()
  TTL = '1h';

  @Setting({ doc: 'Hashes at once', rarelyNeeded: true })
  @IsIntVariable(1)
  HASHES = 2;
}

class Undocumented {
  @Setting({ doc: 'Documented' })
  @IsString()
  KNOWN = 'x';

  @IsString()
  FORGOTTEN = 'y';
}

describe('renderSettings', () => {
  const rendered = renderSettings([
    { title: 'Storage', schema: Storage },
    { title: 'Tokens', schema: Tokens },
  ]);

  it('writes a table per group in declaration order, with the defaults the classes start from', () => {
    expect(rendered).toContain(
      [
        '### Storage',
        '',
        '| Variable | Default                  | Meaning        |',
        '| -------- | ------------------------ | -------------- |',
        '| `DRIVER` | `local`                  | Where files go |',
        '| `BUCKET` | unset (needed with `s3`) | Bucket name    |',
      ].join('\n'),
    );
    expect(rendered).toContain('| `TTL`    | `1h`    | Lifetime |');
  });

  it('gathers the rarely needed variables of every group in one section after the groups', () => {
    const rare = rendered.slice(rendered.indexOf('## Rarely needed'));
    expect(rendered.indexOf('## Rarely needed')).toBeGreaterThan(rendered.indexOf('### Tokens'));
    expect(rare).toContain('| `SWEEP`  | `1h`    | How often to sweep |');
    expect(rare).toContain('| `HASHES` | `2`     | Hashes at once     |');
    expect(rendered.slice(0, rendered.indexOf('## Rarely needed'))).not.toContain('`SWEEP`');
  });

  it('lists the former forms still read', () => {
    expect(rendered).toContain('- `SWEEP_SECONDS`, in seconds: now `SWEEP`, a duration.');
    expect(rendered).toContain('- `TTL` as a bare number: seconds, as before.');
  });

  it('refuses a validated variable without @Setting()', () => {
    expect(() => renderSettings([{ title: 'Odd', schema: Undocumented }])).toThrow(
      'Odd: FORGOTTEN without @Setting() (every variable is documented)',
    );
  });
});

describe('withGeneratedPart', () => {
  const begin =
    '<!-- Generated from the settings classes by `npm run docs:config` (edit them, not this part): begin -->';
  const end = '<!-- Generated from the settings classes: end -->';

  it('replaces what lies between the markers and keeps the prose around them', () => {
    const document = `# Title\n\nProse.\n\n${begin}\n\nold table\n\n${end}\n\n## After\n`;
    expect(withGeneratedPart(document, 'new table')).toBe(
      `# Title\n\nProse.\n\n${begin}\n\nnew table\n\n${end}\n\n## After\n`,
    );
  });

  it('refuses a document without the markers', () => {
    expect(() => withGeneratedPart('# Title\n', 'table')).toThrow(/markers/);
  });
});
