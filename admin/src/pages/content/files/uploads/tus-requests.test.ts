import type { DetailedError, HttpRequest, HttpResponse } from 'tus-js-client';
import { describe, expect, it, vi } from 'vitest';
import type { TokenSource } from '../../../../api/client';
import { tusRequestHooks, uploadError } from './tus-requests';

function request(method = 'PATCH'): HttpRequest {
  const headers = new Map<string, string>();
  return {
    getMethod: () => method,
    getURL: () => 'http://admin.test/files/uploads/u1',
    setHeader: (name, value) => void headers.set(name, value),
    getHeader: (name) => headers.get(name),
    setProgressHandler: () => undefined,
    send: () => Promise.reject(new Error('not sent in this test')),
    abort: () => Promise.resolve(),
    getUnderlyingObject: () => undefined,
  };
}

function response(status: number, body = '', headers: Record<string, string> = {}): HttpResponse {
  return {
    getStatus: () => status,
    getHeader: (name) => headers[name],
    getBody: () => body,
    getUnderlyingObject: () => undefined,
  };
}

const failure = (req: HttpRequest | null, res: HttpResponse | null) =>
  Object.assign(new Error('tus: unexpected response'), {
    originalRequest: req,
    originalResponse: res,
    causingError: null,
  }) as DetailedError;

/** A session whose token changes when renewed, recording each call. */
function tokens() {
  let current = 't1';
  const source = {
    accessToken: vi.fn(() => Promise.resolve(current)),
    renewAfterRejection: vi.fn((rejected: string) => Promise.resolve((current = `${rejected}+`))),
  } satisfies TokenSource;
  return { source, refresh: (token: string) => (current = token) };
}

const file = { id: 'f1' };
const problem = (status: number, type: string, detail: string) =>
  JSON.stringify({ type, title: 'Refused', status, detail });

describe('tusRequestHooks', () => {
  it("puts the session's current token on every request, so a refreshed one goes on with the upload", async () => {
    const session = tokens();
    const hooks = tusRequestHooks(session.source, vi.fn());
    const first = request('POST');
    await hooks.onBeforeRequest(first, file);
    session.refresh('t2');
    const second = request('PATCH');
    await hooks.onBeforeRequest(second, file);
    expect([first.getHeader('Authorization'), second.getHeader('Authorization')]).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('retries a request refused with 401 with the renewed token', async () => {
    const session = tokens();
    const hooks = tusRequestHooks(session.source, vi.fn());
    const refused = request();
    await hooks.onBeforeRequest(refused, file);
    const next = vi.fn(() => false);
    expect(hooks.onShouldRetry(failure(refused, response(401)), 0, {}, next)).toBe(true);
    expect(next).not.toHaveBeenCalled();

    const again = request('HEAD');
    await hooks.onBeforeRequest(again, file);
    expect(session.source.renewAfterRejection).toHaveBeenCalledWith('t1');
    expect(again.getHeader('Authorization')).toBe('Bearer t1+');
    // Renewed once: the request after it asks for the current token again.
    await hooks.onBeforeRequest(request(), file);
    expect(session.source.renewAfterRejection).toHaveBeenCalledTimes(1);
  });

  it('takes a HEAD refused with 401 for a refused token, not for a lost upload, and retries it renewed', async () => {
    const session = tokens();
    const onResuming = vi.fn();
    const hooks = tusRequestHooks(session.source, onResuming);
    const head = request('HEAD');
    await hooks.onBeforeRequest(head, file);
    expect(() => hooks.onAfterResponse(head, response(401))).toThrow('The access token was refused.');
    // tus-js-client then reports an error of the request, without the response.
    expect(hooks.onShouldRetry(failure(head, null), 0, {}, () => false)).toBe(true);
    const again = request('HEAD');
    await hooks.onBeforeRequest(again, file);
    expect(again.getHeader('Authorization')).toBe('Bearer t1+');
    expect(onResuming).not.toHaveBeenCalled();
  });

  it('does not retry a 401 sent without a token', () => {
    const hooks = tusRequestHooks(tokens().source, vi.fn());
    expect(hooks.onShouldRetry(failure(request(), response(401)), 0, {}, () => true)).toBe(false);
  });

  it('retries a 409 only for an offset that moved, and leaves the rest to tus-js-client', async () => {
    const hooks = tusRequestHooks(tokens().source, vi.fn());
    const req = request();
    await hooks.onBeforeRequest(req, file);
    const full = response(409, problem(409, '/problems/field-full', 'The gallery is full.'));
    const moved = response(409, problem(409, '/problems/upload-offset-mismatch', 'The offset is 10.'));
    const next = vi.fn(() => true);
    expect(hooks.onShouldRetry(failure(req, full), 0, {}, next)).toBe(false);
    expect(hooks.onShouldRetry(failure(req, moved), 0, {}, next)).toBe(true);
    expect(hooks.onShouldRetry(failure(req, response(503)), 0, {}, () => false)).toBe(false);
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('retries ending an upload while another request holds it, without tus-js-client’s judgement', async () => {
    const hooks = tusRequestHooks(tokens().source, vi.fn());
    const terminate = request('DELETE');
    await hooks.onBeforeRequest(terminate, file);
    const next = vi.fn(() => true);
    expect(hooks.onShouldRetry(failure(terminate, response(423)), 0, {}, next)).toBe(true);
    expect(hooks.onShouldRetry(failure(terminate, null), 0, {}, next)).toBe(true);
    expect(hooks.onShouldRetry(failure(terminate, response(404)), 0, {}, next)).toBe(false);
    expect(next).not.toHaveBeenCalled();
  });

  it('reports the offset a HEAD finds, for the file it was sent for', async () => {
    const onResuming = vi.fn();
    const hooks = tusRequestHooks(tokens().source, onResuming);
    const head = request('HEAD');
    await hooks.onBeforeRequest(head, file);
    hooks.onAfterResponse(head, response(200, '', { 'Upload-Offset': '4200', 'Upload-Length': '10000' }));
    expect(onResuming).toHaveBeenCalledWith('f1', 4200, 10000);

    const patch = request('PATCH');
    await hooks.onBeforeRequest(patch, file);
    hooks.onAfterResponse(patch, response(204, '', { 'Upload-Offset': '10000' }));
    hooks.onAfterResponse(head, response(404));
    expect(onResuming).toHaveBeenCalledTimes(1);
  });
});

describe('uploadError', () => {
  it("reads the service's problem details", () => {
    const error = uploadError(
      failure(request(), response(413, problem(413, '/problems/file-too-large', 'The file is over 5 MiB.'))),
    );
    expect(error.status).toBe(413);
    expect(error.message).toBe('Refused: The file is over 5 MiB.');
  });

  it('says the service cannot be reached when no answer came, also through Uppy’s network error', () => {
    const network = Object.assign(new Error('This looks like a network error'), {
      cause: failure(request(), null),
    });
    expect(uploadError(network).status).toBe(0);
    expect(uploadError(network).message).toMatch(/cannot be reached/);
    expect(uploadError(new Error('anything')).status).toBe(0);
  });

  it('keeps Retry-After', () => {
    const busy = response(429, problem(429, '/problems/too-many-uploads', 'Too many.'), { 'Retry-After': '3' });
    expect(uploadError(failure(request(), busy)).retryAfterSeconds).toBe(3);
  });
});
