import { jest } from '@jest/globals';
import { Logger, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { DomainError } from '@file-fields/nest';
import { errorFormats } from './error-formats.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';

class TeapotError extends DomainError {
  readonly status = 418;
  readonly code = 'teapot';
  readonly title = 'I am a teapot';
}

function capture(exception: unknown, path = '/x', request: { complete?: boolean; headers?: object } = {}) {
  const sent: { status?: number; type?: string; body?: Record<string, unknown>; headers: Record<string, string> } = {
    headers: {},
  };
  const response = {
    headersSent: false,
    setHeader(name: string, value: string) {
      sent.headers[name] = value;
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    set(headers: Record<string, string>) {
      Object.assign(sent.headers, headers);
      return this;
    },
    type(value: string) {
      sent.type = value;
      return this;
    },
    send(body: string) {
      sent.body = JSON.parse(body);
      return this;
    },
    json(body: Record<string, unknown>) {
      sent.body = body;
      return this;
    },
  };
  const host = {
    switchToHttp: () => ({
      getRequest: () => ({ method: 'GET', path, originalUrl: `${path}?y=1`, complete: true, headers: {}, ...request }),
      getResponse: () => response,
    }),
  } as unknown as ArgumentsHost;
  new ProblemDetailsFilter().catch(exception, host);
  return sent;
}

describe('ProblemDetailsFilter', () => {
  afterEach(() => jest.restoreAllMocks());

  it('renders a domain error with its status, code, title and extensions', () => {
    const error = new TeapotError('Short and stout.');
    error.extensions.spout = true;
    error.headers['Retry-After'] = '5';
    const sent = capture(error);
    expect(sent.status).toBe(418);
    expect(sent.type).toBe('application/problem+json');
    expect(sent.headers).toEqual({ 'Retry-After': '5' });
    expect(sent.body).toEqual({
      type: '/problems/teapot',
      title: 'I am a teapot',
      status: 418,
      detail: 'Short and stout.',
      instance: '/x',
      spout: true,
    });
  });

  it("names a domain error's registered problem type instead of its code's", () => {
    class RegisteredTeapotError extends TeapotError {
      override readonly registeredType = 'https://iana.org/assignments/http-problem-types#teapot';
    }
    expect(capture(new RegisteredTeapotError('Short.')).body).toMatchObject({
      type: 'https://iana.org/assignments/http-problem-types#teapot',
      status: 418,
    });
  });

  it('keeps the status of Nest HTTP exceptions', () => {
    expect(capture(new NotFoundException('Cannot GET /x')).body).toMatchObject({
      status: 404,
      type: 'about:blank',
      detail: 'Cannot GET /x',
    });
  });

  it('hides unexpected errors behind a 500 with an error id and no internals, and logs them with that id', () => {
    // Expected here: the spy keeps the error's stack out of the test output, and checks that it was logged.
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const error = new Error('password=hunter2 at /srv/app.js:12');
    const sent = capture(error);
    expect(sent.status).toBe(500);
    expect(JSON.stringify(sent.body)).not.toMatch(/hunter2|app\.js/);
    expect(sent.body?.error_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.body?.detail).toContain(String(sent.body?.error_id));
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ err: error, errorId: sent.body?.error_id }),
      'Unhandled error',
    );
  });

  it('answers 400, not 500, when PostgreSQL cannot store a text (U+0000), in the format of the path too', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    for (const code of ['22021', '22P05']) {
      const error = new QueryFailedError(
        'INSERT …',
        ['sealed-secret'],
        Object.assign(new Error('invalid byte'), { code }),
      );
      expect(capture(error).body).toMatchObject({ status: 400, detail: expect.stringMatching(/U\+0000/) });
      errorFormats.register('/oauth', (exception) => {
        const status = (exception as { status?: number }).status;
        return status === 400 ? { status, headers: {}, body: { error: 'invalid_request' } } : undefined;
      });
      expect(capture(error, '/oauth')).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    }
    expect(logged).not.toHaveBeenCalled();
    // Any other database error is the service's.
    const other = new QueryFailedError('INSERT …', [], Object.assign(new Error('deadlock'), { code: '40P01' }));
    expect(capture(other).status).toBe(500);
  });

  it('closes the connection of an answer sent before the request body was read', () => {
    const unread = { complete: false, headers: { 'content-length': '1000000' } };
    expect(capture(new NotFoundException(), '/x', unread).headers).toEqual({ Connection: 'close' });
    expect(
      capture(new NotFoundException(), '/x', { complete: true, headers: { 'content-length': '5' } }).headers,
    ).toEqual({});
    // A request without a body keeps its connection, whether or not Node.js has marked it complete yet.
    expect(capture(new NotFoundException(), '/x', { complete: false, headers: {} }).headers).toEqual({});
  });

  it("answers in a feature's own format on the path it registered, and in problem details elsewhere", () => {
    errorFormats.register('/own', (exception) =>
      exception instanceof TeapotError
        ? { status: 418, headers: { 'X-Own': '1' }, body: { error: 'teapot' } }
        : undefined,
    );
    const own = capture(new TeapotError('Short.'), '/own');
    expect(own).toMatchObject({ status: 418, headers: { 'X-Own': '1' }, body: { error: 'teapot' } });
    expect(capture(new TeapotError('Short.'), '/other').body).toMatchObject({ type: '/problems/teapot' });
    expect(capture(new NotFoundException(), '/own').body).toMatchObject({ status: 404 });
  });
});
