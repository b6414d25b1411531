import { WebhookUrlPolicy } from './webhook-url-policy.js';
import { webhooksConfigFrom } from '../webhooks.config.js';
import { WebhooksError, WebhooksErrorCode } from '../webhooks.errors.js';

function policy(env: Record<string, string> = {}): WebhookUrlPolicy {
  return new WebhookUrlPolicy(webhooksConfigFrom(env));
}

async function refusal(url: string, env?: Record<string, string>): Promise<string> {
  const error = await policy(env)
    .assertAllowed(url)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(WebhooksError);
  expect((error as WebhooksError).code).toBe(WebhooksErrorCode.UnsafeUrl);
  return (error as WebhooksError).message;
}

describe('WebhookUrlPolicy', () => {
  it('names WEBHOOK_ALLOW_PRIVATE_NETWORKS when a plain-http or private destination is why a URL is refused', async () => {
    await expect(refusal('http://127.0.0.1:4000/hooks')).resolves.toMatch(
      /must start with https:\/\/\. WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/,
    );
    await expect(refusal('https://127.0.0.1/hooks')).resolves.toMatch(
      /non-public address 127\.0\.0\.1.*WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/,
    );
    await expect(refusal('https://[::1]/hooks')).resolves.toMatch(/WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/);
  });

  it('does not point at the setting when it would not help', async () => {
    for (const url of ['https://user:pw@example.com/', 'ftp://example.com/', 'not a url', 'https://x.org:99999/']) {
      await expect(refusal(url)).resolves.not.toMatch(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
    }
    await expect(refusal('http://user:pw@127.0.0.1/', { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' })).resolves.toMatch(
      /^The URL must not contain a user name or password/,
    );
  });

  it('gives the cause as an error of the url field too', async () => {
    const error = await policy()
      .assertAllowed('https://example.org:99999/hooks')
      .catch((caught: unknown) => caught as WebhooksError);
    expect(error?.extensions.errors).toEqual([
      { field: 'url', messages: ['The port 99999 is out of range: a port is a number from 1 to 65535.'] },
    ]);
    expect(error?.message).toBe('The port 99999 is out of range: a port is a number from 1 to 65535.');
  });

  it('lets http and private destinations through once the setting allows them', async () => {
    await expect(
      policy({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).assertAllowed('http://127.0.0.1:4000/hooks'),
    ).resolves.toBeUndefined();
  });
});
