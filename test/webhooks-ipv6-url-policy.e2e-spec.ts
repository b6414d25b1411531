import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// Without WEBHOOK_ALLOW_PRIVATE_NETWORKS, as in production: the URL policy applies.
describe('Webhooks: IPv4-compatible IPv6 URLs are refused as their IPv4 forms are', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_DISPATCHER: 'off' });
  });
  afterAll(() => t.close({ destroy: true }));

  it.each(['https://[::127.0.0.1]/hooks', 'https://[::7f00:1]/hooks', 'https://[::a9fe:a9fe]/latest/meta-data'])(
    'refuses %s like its IPv4 form',
    async (url) => {
      const res = await t.http.post('/api/webhooks').send({ url, events: ['*'] });
      expectProblem(res, 400, 'unsafe-webhook-url');
    },
  );
});
