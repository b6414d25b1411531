import { describe, expect, it } from 'vitest';
import { unwrap } from './client';
import { ApiError, describeProblem, retryAfterSeconds } from './problems';

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

describe('describeProblem', () => {
  it('words a refusal for lack of a permission for people: what they cannot do, and whom to ask', () => {
    const scope = {
      title: 'Insufficient scope',
      status: 403,
      detail: 'This request needs the permission "integration:write".',
      required_permission: 'integration:write',
    };
    expect(describeProblem(403, scope)).toBe(
      "You don't have permission to change integrations. " +
        'Ask an administrator for a role with the “integration:write” permission.',
    );
    expect(describeProblem(403, { ...scope, required_permission: undefined, detail: scope.detail })).toContain(
      'change integrations',
    );
    expect(describeProblem(403, { title: 'Insufficient scope', required_permission: 'audit:read' })).toBe(
      "You don't have permission to read the audit log. " +
        'Ask an administrator for a role with the “audit:read” permission.',
    );
  });

  it('says each refused field once, though the detail lists them too', () => {
    const message = 'redirect_uris[0] may use http only on 127.0.0.1, localhost or [::1]; use https';
    expect(
      describeProblem(400, {
        title: 'Validation failed',
        detail: `redirect_uris: ${message}`,
        errors: [{ field: 'redirect_uris', messages: [message] }],
      }),
    ).toBe(`Validation failed: redirect_uris: ${message}`);
    expect(
      describeProblem(400, {
        title: 'Validation failed',
        errors: [
          { field: 'name', messages: ['name is required'] },
          { field: 'public', messages: ['must be a boolean value'] },
        ],
      }),
    ).toBe('Validation failed. name is required. public must be a boolean value');
  });

  it('keeps the reason of any other refusal, and says whom to ask when there is none', () => {
    expect(describeProblem(403, { title: 'Privilege escalation', detail: 'The role holds more than you do.' })).toBe(
      'Privilege escalation: The role holds more than you do.',
    );
    expect(describeProblem(403, { title: 'Forbidden' })).toBe(
      "Forbidden. Your role doesn't allow this. Ask an administrator for a role that does.",
    );
  });
});
