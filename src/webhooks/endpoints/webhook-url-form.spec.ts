import { urlFormProblem } from './webhook-url-form.js';

describe('urlFormProblem', () => {
  it.each([
    ['https://example.org:99999/hooks', 'The port 99999 is out of range: a port is a number from 1 to 65535.'],
    ['HTTPS://EXAMPLE.ORG:70000', 'The port 70000 is out of range: a port is a number from 1 to 65535.'],
    ['https://example.org:abc/', '“abc” is not a port: a port is a number from 1 to 65535.'],
    ['https://[::1]:123456/', 'The port 123456 is out of range: a port is a number from 1 to 65535.'],
    ['https://example.org:0/', 'The port 0 is not valid: a port is a number from 1 to 65535.'],
    ['https://exa mple.org/', '“exa mple.org” is not a valid host name.'],
    ['https://[::1/', '“[::1” is not a valid host name.'],
    ['https://:8443/hooks', 'The URL has no host name: write it after the “//”, as in https://example.org/hooks.'],
    ['example.org/hooks', 'The URL must start with https://.'],
    ['ftp://example.org/', 'The URL must start with https://.'],
    ['http://example.org/', 'The URL must start with https://.'],
    ['   ', 'Enter the URL the service should send events to.'],
  ])('%s: %s', (url, problem) => {
    expect(urlFormProblem(url, false)).toBe(problem);
  });

  it('refuses credentials, which receivers would get in every request', () => {
    expect(urlFormProblem('https://user:pw@example.org/', false)).toMatch(/must not contain a user name or password/);
    expect(urlFormProblem('http://user@127.0.0.1/', true)).toMatch(/must not contain a user name or password/);
  });

  it('takes http only when allowed, and names both schemes then', () => {
    expect(urlFormProblem('http://127.0.0.1:4000/hooks', true)).toBeUndefined();
    expect(urlFormProblem('ftp://example.org/', true)).toBe('The URL must start with http:// or https://.');
  });

  it('accepts well-formed https URLs', () => {
    for (const url of ['https://example.org/hooks', 'https://example.org:8443/a?b=c#d', 'https://[2001:db8::1]/']) {
      expect(urlFormProblem(url, false)).toBeUndefined();
    }
  });
});
