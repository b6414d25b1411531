import { jest } from '@jest/globals';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { firstValueFrom, of } from 'rxjs';
import { CacheableRead, ReadCache, type ReadStart } from '../../read-cache/index.js';
import type { FileFieldResolver } from './file-field.resolver.js';
import { ResolveFileFieldsInterceptor } from './resolve-file-fields.interceptor.js';

class Handlers {
  @CacheableRead()
  cached(): void {}

  plain(): void {}
}

describe('ResolveFileFieldsInterceptor', () => {
  const kept = new Map<string, string>();
  const reads = {
    enabled: true,
    start: jest.fn((key: string): Promise<ReadStart> =>
      Promise.resolve({ key, version: '1', epoch: 0, kept: kept.get(key) }),
    ),
    keep: jest.fn((start: ReadStart, text: string) => Promise.resolve(void kept.set(start.key, text))),
  };
  const resolver = {
    resolve: jest.fn((body: unknown) => Promise.resolve(body)),
    fill: jest.fn(() => Promise.resolve(true)),
  };
  const reflector = new Reflector();
  const get = jest.spyOn(reflector, 'get');
  const interceptor = new ResolveFileFieldsInterceptor(
    resolver as unknown as FileFieldResolver,
    reads as unknown as ReadCache,
    reflector,
  );

  const call = (handler: Function, scopes: string[], body: unknown = { id: 1 }) => {
    const headers: Record<string, string> = {};
    const request = { method: 'GET', originalUrl: '/things/1', user: { scopes } };
    const response = { setHeader: (name: string, value: string) => void (headers[name] = value) };
    const context = {
      getType: () => 'http',
      getHandler: () => handler,
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
    } as unknown as ExecutionContext;
    const handle = jest.fn(() => of(body));
    const answer = firstValueFrom(interceptor.intercept(context, { handle } as CallHandler));
    return answer.then((sent) => ({ sent, handled: handle.mock.calls.length, headers }));
  };

  beforeEach(() => {
    kept.clear();
    jest.clearAllMocks();
  });

  it('resolves the answer of a handler that is not marked, and reads its metadata once', async () => {
    const body = { id: 1 };
    expect((await call(Handlers.prototype.plain, ['a:read'], body)).sent).toBe(body);
    await call(Handlers.prototype.plain, ['a:read'], body);
    expect(resolver.resolve).toHaveBeenCalledTimes(2);
    expect(reads.start).not.toHaveBeenCalled();
    expect(get.mock.calls.filter(([, handler]) => handler === Handlers.prototype.plain)).toHaveLength(1);
  });

  it('keeps the JSON answer of a marked handler and sends it again, for the same permission set only', async () => {
    const first = await call(Handlers.prototype.cached, ['b:read', 'a:read']);
    expect(first).toEqual({ sent: '{"id":1}', handled: 1, headers: { 'Content-Type': 'application/json' } });
    const again = await call(Handlers.prototype.cached, ['a:read', 'b:read']);
    expect(again).toEqual({ sent: '{"id":1}', handled: 0, headers: { 'Content-Type': 'application/json' } });
    // Another caller's permissions: its own answer, made anew.
    expect((await call(Handlers.prototype.cached, ['a:read'])).handled).toBe(1);
    expect(kept.size).toBe(2);
  });

  it('does not keep an answer that shows a variant still being made', async () => {
    resolver.fill.mockResolvedValueOnce(false);
    await call(Handlers.prototype.cached, ['a:read']);
    expect(reads.keep).not.toHaveBeenCalled();
    expect((await call(Handlers.prototype.cached, ['a:read'])).handled).toBe(1);
  });
});
