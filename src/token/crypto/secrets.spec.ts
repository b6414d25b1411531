import { digestsEqual, hashPassword, randomToken, sha256Hex, verifyPassword } from './secrets.js';

describe('secrets', () => {
  it('hashes passwords with scrypt and a random salt, verifying only the right one', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(first).not.toBe(second);
    await expect(verifyPassword('correct horse battery staple', first)).resolves.toBe(true);
    await expect(verifyPassword('Correct horse battery staple', first)).resolves.toBe(false);
    await expect(verifyPassword('x', 'not-a-hash')).resolves.toBe(false);
  });

  it('makes high-entropy random tokens', () => {
    const token = randomToken(32);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(randomToken()).not.toBe(token);
  });

  it('compares digests in constant time and refuses empty or different-length ones', () => {
    const digest = sha256Hex('secret');
    expect(digestsEqual(digest, sha256Hex('secret'))).toBe(true);
    expect(digestsEqual(digest, sha256Hex('Secret'))).toBe(false);
    expect(digestsEqual(digest, digest.slice(0, 10))).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });
});
