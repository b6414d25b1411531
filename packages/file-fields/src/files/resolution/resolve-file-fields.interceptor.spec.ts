import { jest } from '@jest/globals';
import { StreamableFile, type CallHandler, type ExecutionContext } from '@nestjs/common';
import { firstValueFrom, of } from 'rxjs';
import { ReadCacheInterceptor, type ReadCache, type ReadStart } from '../../read-cache/index.js';
import type { FileFieldResolver } from './file-field.resolver.js';
import { ResolveFileFieldsInterceptor } from './resolve-file-fields.interceptor.js';

describe('ResolveFileFieldsInterceptor', () => {
  const resolver = {
    fill: jest.fn((body: Record<string, unknown>) => {
      body.cover = null;
      return Promise.resolve(true);
    }),
  };
  const interceptor = new ResolveFileFieldsInterceptor(resolver as unknown as FileFieldResolver);

  const contextOf = () => {
    const headers: Record<string, string> = {};
    const request = { method: 'GET', originalUrl: '/things/1', user: { scopes: ['a:read'] } };
    const response = {
      setHeader: (name: string, value: string) => void (headers[name] = value),
      getHeader: (name: string) => headers[name],
    };
    const context = {
      getType: () => 'http',
      getHandler: () => contextOf,
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
    } as unknown as ExecutionContext;
    return { context, headers };
  };

  beforeEach(() => jest.clearAllMocks());

  it('fills the file fields and writes the answer as JSON text', async () => {
    const { context, headers } = contextOf();
    const sent = await firstValueFrom(interceptor.intercept(context, { handle: () => of({ id: 1 }) } as CallHandler));
    expect(sent).toBe('{"id":1,"cover":null}');
    expect(headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('leaves what is not a JSON object alone', async () => {
    const file = new StreamableFile(Buffer.from('x'));
    for (const body of ['text', file, null]) {
      const { context } = contextOf();
      expect(await firstValueFrom(interceptor.intercept(context, { handle: () => of(body) } as CallHandler))).toBe(
        body,
      );
    }
    expect(resolver.fill).not.toHaveBeenCalled();
  });

  it('inside a kept-answer interceptor, keeps its text unless a record it shows is not final', async () => {
    const keep = jest.fn((_start: ReadStart, _text: string) => Promise.resolve());
    const reads = {
      enabled: true,
      start: (key: string) => Promise.resolve({ key, version: '1', epoch: 0, kept: undefined }),
      keep,
    };
    const cache = new ReadCacheInterceptor(reads as unknown as ReadCache);
    const read = async () => {
      const { context } = contextOf();
      const inner = { handle: () => interceptor.intercept(context, { handle: () => of({ id: 1 }) } as CallHandler) };
      return firstValueFrom(cache.intercept(context, inner as CallHandler));
    };
    expect(await read()).toBe('{"id":1,"cover":null}');
    expect(keep.mock.calls.map(([, text]) => text)).toEqual(['{"id":1,"cover":null}']);
    resolver.fill.mockResolvedValueOnce(false);
    await read();
    expect(keep).toHaveBeenCalledTimes(1);
  });
});
