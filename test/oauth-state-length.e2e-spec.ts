import { authorizeUrl, openAuthorize, pkce } from './support/authorization-code.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** RFC 6749 §4.1.2.1: an over-long `state` is refused with invalid_request, and never sent back to the client. */
describe('The authorization endpoint with a state over 1000 characters', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  const long = 's'.repeat(1001);

  async function refusal(extra: string) {
    const { challenge } = await pkce();
    const target = authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256', state: long });
    const answer = await openAuthorize(new URL(`${target.href}${extra}`));
    expect(answer.status).toBe(302);
    return answer.location!;
  }

  it.each([
    ['alone', ''],
    ['with a repeated parameter', '&scope=product:read&scope=article:read'],
    ['with an unsupported response type too', '&response_type=token'],
  ])('refuses it %s with invalid_request, without the state', async (_case, extra) => {
    const location = await refusal(extra);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.has('state')).toBe(false);
    expect(location.href).not.toContain(long);
  });

  it('still echoes a state of exactly 1000 characters', async () => {
    const { challenge } = await pkce();
    const state = 's'.repeat(1000);
    const target = authorizeUrl(t.url, { code_challenge: challenge, code_challenge_method: 'S256', state });
    const answer = await openAuthorize(new URL(`${target.href}&scope=a:read&scope=b:read`));
    expect(answer.location!.searchParams.get('state')).toBe(state);
  });
});
