import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/problems';
import { REFRESH_TOKEN_KEY, Session, type TokenEndpoint } from './session';

const memoryStorage = () => {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
};
const tokens = (access: string, refresh: string) => ({
  access_token: access,
  refresh_token: refresh,
  token_type: 'Bearer' as const,
  expires_in: 3600,
  scope: '*',
});

/** A tab reloaded with refresh token r1, whose refresh (answering a2, r2) waits until `release` is called. */
const reloadedWithHeldRefresh = () => {
  const storage = memoryStorage();
  storage.setItem(REFRESH_TOKEN_KEY, 'r1');
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const token = vi.fn(async () => {
    await gate;
    return tokens('a2', 'r2');
  });
  return { storage, token, release };
};

describe('Session', () => {
  it('redeems an authorization code with its verifier and keeps only the refresh token', async () => {
    const storage = memoryStorage();
    const endpoint: TokenEndpoint = { token: vi.fn(() => Promise.resolve(tokens('a1', 'r1'))), revoke: vi.fn() };
    const session = new Session(endpoint, storage);
    expect(session.state.signedIn).toBe(false);
    await session.signInWithCode('c1', 'v1', 'https://cms.test/admin/callback');
    expect(endpoint.token).toHaveBeenCalledWith({
      grant_type: 'authorization_code',
      client_id: 'administration',
      code: 'c1',
      redirect_uri: 'https://cms.test/admin/callback',
      code_verifier: 'v1',
    });
    expect(session.state.signedIn).toBe(true);
    expect([...storage.map.entries()]).toEqual([[REFRESH_TOKEN_KEY, 'r1']]);
    expect(await session.accessToken()).toBe('a1');
  });

  it('stores nothing from a refresh that was under way when the user signed out', async () => {
    const { storage, token, release } = reloadedWithHeldRefresh();
    const revoke = vi.fn(() => Promise.resolve());
    const session = new Session({ token, revoke }, storage);
    const renewing = session.accessToken();
    await session.signOut();
    release();
    expect(await renewing).toBeUndefined();
    expect(revoke).toHaveBeenCalledWith('r1');
    expect(storage.map.size).toBe(0);
    expect(session.state.signedIn).toBe(false);
  });

  it('after a reload, makes one refresh for any number of concurrent calls and stores the rotated token', async () => {
    const { storage, token, release } = reloadedWithHeldRefresh();
    const session = new Session({ token, revoke: vi.fn() }, storage);
    expect(session.state.signedIn).toBe(true);
    const calls = Promise.all([session.accessToken(), session.accessToken(), session.accessToken()]);
    release();
    expect(await calls).toEqual(['a2', 'a2', 'a2']);
    expect(token).toHaveBeenCalledTimes(1);
    expect(token).toHaveBeenCalledWith({
      grant_type: 'refresh_token',
      client_id: 'administration',
      refresh_token: 'r1',
    });
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe('r2');
  });

  it('renews an access token before it expires', async () => {
    let now = 0;
    const token = vi
      .fn<TokenEndpoint['token']>()
      .mockResolvedValueOnce(tokens('a1', 'r1'))
      .mockResolvedValueOnce(tokens('a2', 'r2'));
    const session = new Session({ token, revoke: vi.fn() }, memoryStorage(), () => now);
    await session.signInWithCode('c1', 'v1', 'https://cms.test/admin/callback');
    now = 3_550_000;
    expect(await session.accessToken()).toBe('a2');
  });

  it('ends the session with a message when the refresh token is refused', async () => {
    const storage = memoryStorage();
    storage.setItem(REFRESH_TOKEN_KEY, 'r1');
    const token = vi.fn(() => Promise.reject(new ApiError(400, { error: 'invalid_grant' })));
    const session = new Session({ token, revoke: vi.fn() }, storage);
    const states: unknown[] = [];
    session.subscribe((state) => states.push(state));
    expect(await session.accessToken()).toBeUndefined();
    expect(session.state).toEqual({ signedIn: false, message: 'Your session has ended. Please sign in again.' });
    expect(states).toHaveLength(1);
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
  });

  it('waits for Retry-After on a 429 and tries again, keeping the session (a shared address hit its limit)', async () => {
    const storage = memoryStorage();
    storage.setItem(REFRESH_TOKEN_KEY, 'r1');
    const limited = new ApiError(429, { error: 'invalid_request' }, 7);
    const token = vi
      .fn<TokenEndpoint['token']>()
      .mockRejectedValueOnce(limited)
      .mockResolvedValueOnce(tokens('a2', 'r2'));
    const waits: number[] = [];
    const wait = (ms: number) => (waits.push(ms), Promise.resolve());
    const session = new Session({ token, revoke: vi.fn() }, storage, Date.now, wait);
    const states: unknown[] = [];
    session.subscribe((state) => states.push(state));
    expect(await session.accessToken()).toBe('a2');
    expect(waits).toEqual([7000]);
    expect(token).toHaveBeenCalledTimes(2);
    expect(states).toEqual([]);
    expect(session.state.signedIn).toBe(true);
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe('r2');
  });

  it('keeps the session through repeated 429s and refusals other than invalid_grant', async () => {
    for (const refusal of [
      new ApiError(429, { error: 'invalid_request' }),
      new ApiError(401, { error: 'invalid_client' }),
      new ApiError(400, { error: 'invalid_request' }),
    ]) {
      const storage = memoryStorage();
      storage.setItem(REFRESH_TOKEN_KEY, 'r1');
      const token = vi.fn(() => Promise.reject(refusal));
      const session = new Session({ token, revoke: vi.fn() }, storage, Date.now, () => Promise.resolve());
      await expect(session.accessToken()).rejects.toBe(refusal);
      expect(session.state.signedIn).toBe(true);
      expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe('r1');
    }
  });

  it('keeps the session when the service cannot be reached', async () => {
    const storage = memoryStorage();
    storage.setItem(REFRESH_TOKEN_KEY, 'r1');
    const session = new Session({ token: () => Promise.reject(new ApiError(0, undefined)), revoke: vi.fn() }, storage);
    await expect(session.accessToken()).rejects.toThrow(/cannot be reached/);
    expect(session.state.signedIn).toBe(true);
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe('r1');
  });

  it('signs out: forgets both tokens and revokes the refresh token at the service', async () => {
    const storage = memoryStorage();
    const revoke = vi.fn(() => Promise.resolve());
    const session = new Session({ token: () => Promise.resolve(tokens('a1', 'r1')), revoke }, storage);
    await session.signInWithCode('c1', 'v1', 'https://cms.test/admin/callback');
    await session.signOut();
    expect(revoke).toHaveBeenCalledWith('r1');
    // With a message, so the signed-out screen offers "Sign in" instead of signing in again unasked.
    expect(session.state).toEqual({ signedIn: false, message: 'You have signed out.' });
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(await session.accessToken()).toBeUndefined();
  });
});
