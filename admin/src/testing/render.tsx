import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { expect, vi } from 'vitest';
import { createApiClient } from '../api/client';
import type { Uploader } from '../api/uploads';
import { Session, type TokenEndpoint } from '../auth/session';
import { AdminServicesProvider, type AdminServices } from '../context';

export type Handler = (request: Request, params: Record<string, string>) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
export const problem = (status: number, title: string, detail: string, extra: object = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title, status, detail, ...extra }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });

/**
 * A fake service behind the real generated client: `routes` maps 'METHOD /path/:param' to handlers; every request
 * is recorded in `calls`. Unknown routes answer 404.
 */
export function fakeService(routes: Record<string, Handler>) {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  const table = Object.entries(routes).map(([key, handler]) => {
    const [method, pattern] = key.split(' ');
    const names: string[] = [];
    const regex = new RegExp(`^${pattern.replace(/:(\w+)/g, (_m, name: string) => (names.push(name), '([^/]+)'))}$`);
    return { method, regex, names, handler };
  });
  const fetch = vi.fn(async (input: Request) => {
    const url = new URL(input.url);
    const text = await input.clone().text();
    calls.push({ method: input.method, path: url.pathname + url.search, body: text ? safeJson(text) : undefined });
    for (const route of table) {
      const match = route.method === input.method && route.regex.exec(url.pathname);
      if (match) {
        const params = Object.fromEntries(route.names.map((name, index) => [name, match[index + 1]]));
        return route.handler(input, params);
      }
    }
    return problem(404, 'Not Found', `No fake for ${input.method} ${url.pathname}`);
  });
  return { fetch, calls };
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** A signed-in session whose token endpoint is a fake. */
function signedInSession(endpoint: Partial<TokenEndpoint> = {}) {
  const storage = new Map<string, string>([['admin.refresh_token', 'r1']]);
  const tokens: TokenEndpoint = {
    token:
      endpoint.token ??
      (() => Promise.resolve({ access_token: 'a1', token_type: 'Bearer', expires_in: 3600, scope: '*' })),
    revoke: endpoint.revoke ?? (() => Promise.resolve()),
  };
  return new Session(tokens, {
    getItem: (key) => storage.get(key) ?? null,
    setItem: (key, value) => void storage.set(key, value),
    removeItem: (key) => void storage.delete(key),
  });
}

/**
 * Renders a page with the real API client over a fake service (`routes`), at `path` matched by `pattern`.
 * `uploader` opens the fields' upload queues (uploads are not fetch calls).
 */
export function renderPage(
  page: ReactElement,
  {
    routes,
    path = '/',
    pattern = '*',
    uploader,
  }: {
    routes: Record<string, Handler>;
    path?: string;
    pattern?: string;
    uploader?: Uploader;
  },
) {
  const service = fakeService(routes);
  vi.stubGlobal('fetch', service.fetch);
  const session = signedInSession();
  const services: AdminServices = {
    session,
    api: createApiClient(session, 'http://admin.test'),
    uploader: uploader ?? vi.fn(() => Promise.reject(new Error('no uploads in this test'))),
  };
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const view = render(
    <AdminServicesProvider services={services}>
      <QueryClientProvider client={queries}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={pattern} element={page} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AdminServicesProvider>,
  );
  return { ...view, ...service, services };
}

/** Resolves once the fake service was asked for `path` and the page had a moment to show the answer. */
export async function afterAnswer(calls: Array<{ path: string }>, path: string) {
  await waitFor(() => expect(calls.some((call) => call.path === path)).toBe(true));
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
}
