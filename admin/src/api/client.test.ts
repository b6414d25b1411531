import { describe, expect, it } from 'vitest';
import { unwrap } from './client';
import { ApiError, retryAfterSeconds } from './problems';

describe('unwrap', () => {
  it("keeps a refusal's Retry-After, for the caller to wait that long", async () => {
    const response = new Response('{}', { status: 429, headers: { 'Retry-After': '12' } });
    const refused = unwrap(Promise.resolve({ error: { error: 'invalid_request' }, response }));
    await expect(refused).rejects.toMatchObject({ status: 429, retryAfterSeconds: 12 });
  });

  it('passes on an ApiError thrown on the way (a refused refresh) instead of calling it a network failure', async () => {
    const refusal = new ApiError(429, { error: 'invalid_request' }, 3);
    await expect(unwrap(Promise.reject(refusal))).rejects.toBe(refusal);
    await expect(unwrap(Promise.reject(new TypeError('Failed to fetch')))).rejects.toMatchObject({ status: 0 });
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterSeconds('5')).toBe(5);
    expect(retryAfterSeconds('Thu, 01 Jan 1970 00:00:30 GMT', 10_000)).toBe(20);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds('soon')).toBeUndefined();
  });
});
