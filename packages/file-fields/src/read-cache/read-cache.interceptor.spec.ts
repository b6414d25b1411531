import { jest } from '@jest/globals';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { firstValueFrom, of, type Observable } from 'rxjs';
import type { ReadCache, ReadStart } from './read-cache.js';
import { keepNotTheAnswerTo, ReadCacheInterceptor } from './read-cache.interceptor.js';

class Handlers {
  first(): void {}
  second(): void {}
}

describe('ReadCacheInterceptor', () => {
  const kept = new Map<string, string>();
  const reads = {
    enabled: true,
    start: jest.fn((key: string): Promise<ReadStart> =>
      Promise.resolve({ key, version: '1', epoch: 0, kept: kept.get(key) }),
    ),
    keep: jest.fn((start: ReadStart, text: string) => Promise.resolve(void kept.set(start.key, text))),
  };
  const interceptor = new ReadCacheInterceptor(reads as unknown as ReadCache);

  /** One request through the interceptor; `inside` stands for the handler and what runs around it. */
  const call = (
    scopes: string[],
    inside: (request: object, headers: Record<string, string>) => Observable<unknown> = () => of({ id: 1 }),
    { handler = Handlers.prototype.first, method = 'GET' } = {},
  ) => {
    const headers: Record<string, string> = {};
    const request = { method, originalUrl: '/things/1', user: { scopes } };
    const response = {
      setHeader: (name: string, value: string) => void (headers[name] = value),
      getHeader: (name: string) => headers[name],
    };
    const context = {
      getType: () => 'http',
      getHandler: () => handler,
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
    } as unknown as ExecutionContext;
    const handle = jest.fn(() => inside(request, headers));
    const answer = firstValueFrom(interceptor.intercept(context, { handle } as CallHandler));
    return answer.then((sent) => ({ sent, handled: handle.mock.calls.length, headers }));
  };

  beforeEach(() => {
    kept.clear();
    jest.clearAllMocks();
  });

  it('keeps the JSON answer and sends it again, for the same handler and permission set only', async () => {
    const first = await call(['b:read', 'a:read']);
    expect(first).toEqual({ sent: '{"id":1}', handled: 1, headers: { 'Content-Type': 'application/json' } });
    const again = await call(['a:read', 'b:read']);
    expect(again).toEqual({ sent: '{"id":1}', handled: 0, headers: { 'Content-Type': 'application/json' } });
    // Another caller's permissions, another handler: answers of their own, made anew.
    expect((await call(['a:read'])).handled).toBe(1);
    expect((await call(['a:read', 'b:read'], undefined, { handler: Handlers.prototype.second })).handled).toBe(1);
    expect(kept.size).toBe(3);
  });

  it('keeps the JSON text written inside it as it is', async () => {
    const inside = (_request: object, headers: Record<string, string>) => {
      headers['Content-Type'] = 'application/json';
      return of('{"id":2,"cover":null}');
    };
    expect((await call(['a:read'], inside)).sent).toBe('{"id":2,"cover":null}');
    expect([...kept.values()]).toEqual(['{"id":2,"cover":null}']);
  });

  it('does not keep an answer marked as showing what is still changing, nor one that is not JSON', async () => {
    await call(['a:read'], (request) => {
      keepNotTheAnswerTo(request);
      return of({ id: 1 });
    });
    expect(reads.keep).not.toHaveBeenCalled();
    expect((await call(['a:read'], () => of('plain text'))).sent).toBe('plain text');
    expect(reads.keep).not.toHaveBeenCalled();
  });

  it('lets other methods through untouched', async () => {
    const body = { id: 1 };
    expect((await call(['a:read'], () => of(body), { method: 'POST' })).sent).toBe(body);
    expect(reads.start).not.toHaveBeenCalled();
  });
});
