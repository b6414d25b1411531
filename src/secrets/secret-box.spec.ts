import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError } from './secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and the sealed form shows nothing of the value', () => {
    const sealed = box.seal('-----BEGIN PRIVATE KEY----- abc', 'kid-1');
    expect(sealed).toMatch(new RegExp(`^enc:v1:${box.keyId}:[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(SecretBox.isSealed('whsec_abc')).toBe(false);
    expect(box.open(sealed, 'kid-1')).toBe('-----BEGIN PRIVATE KEY----- abc');
    expect(box.open(box.seal(''))).toBe('');
  });

  it('seals the same value differently each time (random IV)', () => {
    const [a, b] = [box.seal('same'), box.seal('same')];
    expect(a).not.toBe(b);
    expect([box.open(a), box.open(b)]).toEqual(['same', 'same']);
  });

  it('refuses a value with any byte flipped', () => {
    const sealed = box.seal('whsec_secret');
    const payload = Buffer.from(sealed.split(':')[3], 'base64url');
    for (const at of [0, 12, payload.length - 1]) {
      const tampered = Buffer.from(payload);
      tampered[at] ^= 0x01;
      const value = `enc:v1:${box.keyId}:${tampered.toString('base64url')}`;
      expect(() => box.open(value)).toThrow(SecretBoxError);
      expect(() => box.open(value)).toThrow(/does not authenticate/);
    }
  });

  it('refuses a value sealed for another context', () => {
    expect(() => box.open(box.seal('x', 'kid-1'), 'kid-2')).toThrow(/does not authenticate/);
  });

  it('says so when a value was sealed with another key', () => {
    const other = new SecretBox(randomBytes(32));
    expect(other.keyId).not.toBe(box.keyId);
    expect(() => other.open(box.seal('x'))).toThrow(/sealed with another SECRETS_KEY/);
  });

  it('refuses values that are not sealed, and keys that are not 32 bytes', () => {
    expect(() => box.open('whsec_plain')).toThrow(/not a sealed secret/);
    expect(() => box.open(`enc:v1:${box.keyId}:AAAA`)).toThrow(/truncated/);
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
