import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api/client';
import { ApiError } from '../api/problems';
import { AdminRoutes } from '../app';
import { AdminServicesProvider } from '../context';
import { ShowLocation } from '../testing/location';
import { fakeService, json } from '../testing/render';
import { me, ROLES, pageOf } from '../testing/system-fixtures';
import { PENDING_SIGN_IN_KEY, type ServerMetadata } from './authorization-flow';
import { FlowEnvironmentProvider } from './flow-environment';
import { REFRESH_TOKEN_KEY, Session, type TokenEndpoint } from './session';

const ISSUER = 'http://admin.test';
const METADATA: ServerMetadata = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/api/oauth/authorize`,
  authorization_response_iss_parameter_supported: true,
};
const REDIRECT_URI = `${ISSUER}/admin/callback`;
const PENDING = { state: 's1', verifier: 'v1', redirectUri: REDIRECT_URI, returnTo: '/settings/system/roles' };
const TOKENS = { access_token: 'a1', refresh_token: 'r1', token_type: 'Bearer' as const, expires_in: 3600, scope: '*' };

/** The interface, signed out, opened at `path` in a tab whose sign-in under way is `pending`. */
function openAt(
  path: string,
  pending: object | undefined = PENDING,
  token: TokenEndpoint['token'] = vi.fn(),
  metadata = () => Promise.resolve(METADATA),
) {
  const storage = new Map<string, string>(pending ? [[PENDING_SIGN_IN_KEY, JSON.stringify(pending)]] : []);
  const tabStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  };
  const service = fakeService({
    'GET /api/me': () => json(me(['*'])),
    'GET /api/roles': () => json(pageOf(ROLES)),
    'GET /files/fields': () => json([]),
  });
  vi.stubGlobal('fetch', service.fetch);
  const session = new Session({ token, revoke: vi.fn() }, tabStorage);
  const assigned: string[] = [];
  const replaced: string[] = [];
  const env = {
    storage: tabStorage,
    metadata,
    location: {
      origin: ISSUER,
      assign: (url: string) => void assigned.push(url),
      replace: (url: string) => void replaced.push(url),
    },
  };
  const services = { session, api: createApiClient(session, ISSUER), uploader: vi.fn() };
  render(
    <StrictMode>
      <AdminServicesProvider services={services}>
        <FlowEnvironmentProvider value={env}>
          <QueryClientProvider client={new QueryClient()}>
            <MemoryRouter initialEntries={[path]}>
              <AdminRoutes />
              <ShowLocation />
            </MemoryRouter>
          </QueryClientProvider>
        </FlowEnvironmentProvider>
      </AdminServicesProvider>
    </StrictMode>,
  );
  return { storage, token, assigned, replaced };
}

const location = () => screen.getByTestId('location').textContent;

describe('The callback page', () => {
  it('redeems the code once, keeps the refresh token and shows the page the user was going to', async () => {
    const token = vi.fn(() => Promise.resolve(TOKENS));
    const { storage } = openAt(`/callback?code=c1&state=s1&iss=${encodeURIComponent(ISSUER)}`, PENDING, token);
    expect(await screen.findByRole('heading', { level: 1, name: 'Roles' })).toBeTruthy();
    expect(location()).toBe('/settings/system/roles');
    expect(token).toHaveBeenCalledTimes(1);
    expect(token).toHaveBeenCalledWith({
      grant_type: 'authorization_code',
      client_id: 'administration',
      code: 'c1',
      redirect_uri: REDIRECT_URI,
      code_verifier: 'v1',
    });
    expect([...storage.keys()]).toEqual([REFRESH_TOKEN_KEY]);
  });

  it('refuses a state this tab did not send, removes the response from the address, and signs in again', async () => {
    const token = vi.fn();
    const { assigned, storage } = openAt(`/callback?code=c1&state=forged&iss=${ISSUER}`, PENDING, token);
    expect((await screen.findByRole('alert')).textContent).toMatch(/did not start in this tab/);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Not signed in');
    await waitFor(() => expect(location()).toBe('/callback'));
    expect(token).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(assigned).toHaveLength(1));
    expect(new URL(assigned[0]).searchParams.get('state')).toBe(JSON.parse(storage.get(PENDING_SIGN_IN_KEY)!).state);
    // Back to where the first sign-in was going.
    expect(JSON.parse(storage.get(PENDING_SIGN_IN_KEY)!).returnTo).toBe('/settings/system/roles');
  });

  it('says a cancelled sign-in in words', async () => {
    openAt('/callback?error=access_denied&error_description=The+user+cancelled.&state=s1');
    expect((await screen.findByRole('alert')).textContent).toBe('Sign-in was cancelled.');
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeTruthy();
  });

  it('says so when the service refuses the code', async () => {
    const token = vi.fn(() => Promise.reject(new ApiError(400, { error: 'invalid_grant' })));
    openAt(`/callback?code=c1&state=s1&iss=${ISSUER}`, PENDING, token);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The sign-in expired or was already used. Sign in again.',
    );
  });
});

describe('The signed-out screen', () => {
  it('goes straight to the service’s sign-in page on a first visit, to come back to the page that was opened', async () => {
    const { assigned, replaced, storage } = openAt('/settings/system/users?offset=20', undefined);
    await waitFor(() => expect(replaced).toHaveLength(1));
    expect(new URL(replaced[0]).pathname).toBe('/api/oauth/authorize');
    // Replaced, not added: Back from the service's page leaves the interface instead of coming here again.
    expect(assigned).toEqual([]);
    expect(JSON.parse(storage.get(PENDING_SIGN_IN_KEY)!).returnTo).toBe('/settings/system/users?offset=20');
    expect(screen.getByRole('status').textContent).toContain('Opening the sign-in page…');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('shows why when the sign-in page cannot be opened, with "Sign in" to try again', async () => {
    const metadata = vi
      .fn<() => Promise<ServerMetadata>>()
      .mockRejectedValueOnce(new ApiError(0, undefined))
      .mockResolvedValue(METADATA);
    const { assigned, replaced } = openAt('/settings/system/users', undefined, vi.fn(), metadata);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The service cannot be reached. Check your connection and try again.',
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Administration');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(assigned).toHaveLength(1));
    expect(new URL(assigned[0]).pathname).toBe('/api/oauth/authorize');
    expect(replaced).toEqual([]);
  });

  it('goes on by itself when a sign-in started at another address arrives (once, even in StrictMode)', async () => {
    const { replaced } = openAt('/settings/system/users#sign-in', undefined);
    await waitFor(() => expect(replaced).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(replaced).toHaveLength(1);
  });
});
