import { IsOptional, IsString } from 'class-validator';
import { secondsAsDuration, upgradeFormerForms } from './former-forms.js';
import { Setting } from './setting.js';
import { IsDuration, validateConfig } from './validate-config.js';

class Sample {
  @Setting({ doc: 'Renamed', formerly: 'GRACE_SECONDS' })
  @IsDuration()
  GRACE = '1h';

  @Setting({ doc: 'Once seconds', bareSeconds: true })
  @IsDuration()
  TTL = '1h';

  @Setting({ doc: 'Always a duration' })
  @IsDuration()
  TIMEOUT = '15s';

  @Setting({ doc: 'Not a duration' })
  @IsOptional()
  @IsString()
  NAME?: string;
}

function read(raw: Record<string, string>) {
  const warnings: string[] = [];
  const env = validateConfig(Sample, raw, (warning) => warnings.push(warning));
  return { env, warnings };
}

describe('secondsAsDuration', () => {
  it('writes seconds in the largest unit that counts them exactly', () => {
    expect([0, 1, 59, 60, 90, 3600, 5400, 86_400, 604_800].map(secondsAsDuration)).toEqual([
      '0s',
      '1s',
      '59s',
      '1m',
      '90s',
      '1h',
      '90m',
      '1d',
      '7d',
    ]);
  });
});

describe('former forms of a variable', () => {
  it('reads a former name as the new one, bare numbers as seconds, with one warning naming the new form', () => {
    expect(read({ GRACE_SECONDS: '3600' })).toEqual({
      env: expect.objectContaining({ GRACE: '1h' }) as unknown,
      warnings: ['GRACE_SECONDS is deprecated: use GRACE=1h'],
    });
    expect(read({ GRACE_SECONDS: '0' }).env.GRACE).toBe('0s');
  });

  it('ignores the former name, with a warning, when the new one is set', () => {
    expect(read({ GRACE_SECONDS: '60', GRACE: '5m' })).toEqual({
      env: expect.objectContaining({ GRACE: '5m' }) as unknown,
      warnings: ['GRACE_SECONDS is deprecated and ignored: GRACE is set'],
    });
  });

  it('keeps counting seconds in a bare number where the variable used to be seconds', () => {
    expect(read({ TTL: '600' })).toEqual({
      env: expect.objectContaining({ TTL: '10m' }) as unknown,
      warnings: ['TTL=600 (seconds) is deprecated: use TTL=10m'],
    });
    expect(read({ TTL: '0' })).toEqual({ env: expect.objectContaining({ TTL: '0' }) as unknown, warnings: [] });
    expect(read({ TTL: '2h' }).warnings).toEqual([]);
  });

  it('refuses a bare number elsewhere (its unit would be a guess), but takes 0', () => {
    expect(() => read({ TIMEOUT: '15' })).toThrow(/TIMEOUT: TIMEOUT must be a duration like 15s/);
    expect(read({ TIMEOUT: '0' }).env.TIMEOUT).toBe('0');
  });

  it('names the former name in an error about a value written there', () => {
    expect(() => read({ GRACE_SECONDS: 'an hour' })).toThrow(
      /GRACE_SECONDS \(read as GRACE\): GRACE must be a duration/,
    );
  });

  it('leaves the variables it is given untouched', () => {
    const raw = { GRACE_SECONDS: '60', NAME: 'x' };
    const { variables, formerNames } = upgradeFormerForms(Sample, raw);
    expect(raw).toEqual({ GRACE_SECONDS: '60', NAME: 'x' });
    expect(variables).toEqual({ GRACE: '1m', NAME: 'x' });
    expect(formerNames).toEqual(new Map([['GRACE', 'GRACE_SECONDS']]));
  });
});
