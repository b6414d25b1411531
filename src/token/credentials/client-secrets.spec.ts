import { sha256Hex } from '../crypto/secrets.js';
import { previousSecretActive, secretMatches } from './client-secrets.js';

const NOW = Date.UTC(2026, 0, 1);

describe('client secrets', () => {
  const rotated = {
    secretHash: sha256Hex('new'),
    previousSecretHash: sha256Hex('old'),
    previousSecretExpiresAt: NOW + 1_000,
  };

  it('matches the current secret, and the previous one only while its grace lasts', () => {
    expect(secretMatches(rotated, 'new', NOW)).toBe(true);
    expect(secretMatches(rotated, 'old', NOW)).toBe(true);
    expect(previousSecretActive(rotated, NOW + 1_000)).toBe(false);
    expect(secretMatches(rotated, 'old', NOW + 1_000)).toBe(false);
    expect(secretMatches(rotated, 'new', NOW + 1_000)).toBe(true);
  });

  it('matches nothing else, and nothing for a client without a secret (a public one)', () => {
    expect(secretMatches(rotated, 'guess', NOW)).toBe(false);
    expect(secretMatches({ secretHash: null, previousSecretHash: null, previousSecretExpiresAt: null }, '', NOW)).toBe(
      false,
    );
  });
});
