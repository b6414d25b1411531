import { createServer } from 'node:net';
import { freePortOn, localUrl } from './local-url.js';

describe('localUrl', () => {
  it('names the host the service listens on, IPv6 addresses in brackets', () => {
    expect(localUrl('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000');
    expect(localUrl('files.internal', 8080)).toBe('http://files.internal:8080');
    expect(localUrl('::1', 3000)).toBe('http://[::1]:3000');
  });

  it('names loopback for a wildcard host, which no client can open', () => {
    for (const wildcard of ['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0']) {
      expect(localUrl(wildcard, 3000)).toBe('http://127.0.0.1:3000');
    }
  });
});

describe('freePortOn', () => {
  it('gives a port that can be listened on at once', async () => {
    const port = await freePortOn('127.0.0.1');
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
