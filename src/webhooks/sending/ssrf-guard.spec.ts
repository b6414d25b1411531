import { isPublicAddress } from './ssrf-guard.js';
import { WebhookUrlPolicy } from '../endpoints/webhook-url-policy.js';
import { webhooksConfigFrom } from '../webhooks.config.js';

describe('SSRF guard: IPv4-compatible IPv6 addresses (::/96)', () => {
  // Deprecated (RFC 4291 §2.5.5.1), yet some stacks still reach the IPv4 address embedded in the last 32 bits.
  it.each(['::7f00:1', '::a00:1', '::a9fe:a9fe', '::c0a8:101', '::808:808', '0:0:0:0:0:0:7f00:1', '::'])(
    'refuses %s',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );

  it('still allows public IPv6 addresses', () => {
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    expect(isPublicAddress('2001:4860:4860::8888')).toBe(true);
  });

  it.each(['https://[::127.0.0.1]/hooks', 'https://[::7f00:1]/hooks', 'https://[::169.254.169.254]/'])(
    'the URL policy refuses %s',
    async (url) => {
      await expect(new WebhookUrlPolicy(webhooksConfigFrom({})).assertAllowed(url)).rejects.toThrow(
        /non-public address/,
      );
    },
  );
});
