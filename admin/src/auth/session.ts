import type { Schemas } from '../api/client';
import { ApiError } from '../api/problems';

/** The OAuth client of this interface: a public client (no secret), the authorization code flow and refresh tokens. */
export const ADMIN_CLIENT_ID = 'administration';
/** Where the refresh token waits for the next page load of this tab (see docs/admin-ui.md: why sessionStorage). */
export const REFRESH_TOKEN_KEY = 'admin.refresh_token';
/** An access token this close to its expiry is renewed before use. */
const RENEW_BEFORE_MS = 60_000;
/** A refresh refused with 429 is tried again after its Retry-After, this many times at most, each wait capped. */
const RATE_LIMITED_RETRIES = 3;
const RETRY_AFTER_CAP_SECONDS = 60;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type TokenResponse = Schemas['TokenResponse'];

/** The two calls of the token service the session makes (the generated client's, see createTokenEndpoint). */
export interface TokenEndpoint {
  token(body: Record<string, string>): Promise<TokenResponse>;
  revoke(refreshToken: string): Promise<void>;
}

const SIGNED_OUT_MESSAGE = 'You have signed out.';

export type SessionState = { signedIn: true } | { signedIn: false; message?: string };

/**
 * The sign-in session of this tab. The access token lives in memory only; the refresh token, rotated by the
 * service on every use, is kept in sessionStorage so that a reload stays signed in. Renewals are shared: however
 * many calls need a new token at once, one refresh request is made.
 */
export class Session {
  private access: { token: string; expiresAt: number } | undefined;
  private renewal: Promise<string | undefined> | undefined;
  /** Raised by every sign-out: a refresh that was under way then must not store the tokens it brings back. */
  private signOuts = 0;
  private readonly listeners = new Set<(state: SessionState) => void>();
  private current: SessionState;

  constructor(
    private readonly endpoint: TokenEndpoint,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<void> = delay,
  ) {
    this.current = { signedIn: storage.getItem(REFRESH_TOKEN_KEY) !== null };
  }

  get state(): SessionState {
    return this.current;
  }

  subscribe(listener: (state: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Redeems an authorization code with its PKCE verifier, at the redirect URI it was issued for. */
  async signInWithCode(code: string, verifier: string, redirectUri: string): Promise<void> {
    const tokens = await this.endpoint.token({
      grant_type: 'authorization_code',
      client_id: ADMIN_CLIENT_ID,
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    this.keep(tokens);
    this.change({ signedIn: true });
  }

  /**
   * Revokes the refresh token's family at the service (every tab of this sign-in), then forgets both tokens. The
   * message keeps the signed-out screen from going straight back to the service's sign-in page.
   */
  async signOut(): Promise<void> {
    const refreshToken = this.storage.getItem(REFRESH_TOKEN_KEY);
    this.signOuts += 1;
    this.forget();
    this.change({ signedIn: false, message: SIGNED_OUT_MESSAGE });
    if (refreshToken) await this.endpoint.revoke(refreshToken).catch(() => undefined);
  }

  async accessToken(): Promise<string | undefined> {
    if (this.access && this.access.expiresAt - RENEW_BEFORE_MS > this.now()) return this.access.token;
    return this.renew();
  }

  async renewAfterRejection(rejected: string): Promise<string | undefined> {
    // Another call may have renewed it already.
    if (this.access && this.access.token !== rejected) return this.access.token;
    this.access = undefined;
    return this.renew();
  }

  private renew(): Promise<string | undefined> {
    this.renewal ??= this.refresh().finally(() => (this.renewal = undefined));
    return this.renewal;
  }

  private async refresh(): Promise<string | undefined> {
    const signOuts = this.signOuts;
    for (let retries = 0; ; retries++) {
      const refreshToken = this.storage.getItem(REFRESH_TOKEN_KEY);
      if (!refreshToken) return undefined;
      try {
        const tokens = await this.endpoint.token({
          grant_type: 'refresh_token',
          client_id: ADMIN_CLIENT_ID,
          refresh_token: refreshToken,
        });
        // Signed out meanwhile: the sign-out revoked this token's family, so forgetting what came back is enough.
        if (this.signOuts !== signOuts) return undefined;
        this.keep(tokens);
        return tokens.access_token;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // Only invalid_grant says the refresh token is over (expired, revoked, signed out elsewhere): back to the
        // sign-in page with a reason. Anything else keeps it: a 429 is the failure limit of an address that may be
        // shared by many (a NAT, a proxy), a network error or a 5xx passes, for the next call to try again.
        if (error.body?.error === 'invalid_grant') {
          this.forget();
          this.change({ signedIn: false, message: 'Your session has ended. Please sign in again.' });
          return undefined;
        }
        if (error.status !== 429 || retries >= RATE_LIMITED_RETRIES) throw error;
        await this.wait(Math.min(error.retryAfterSeconds ?? 1, RETRY_AFTER_CAP_SECONDS) * 1000);
      }
    }
  }

  private keep(tokens: TokenResponse): void {
    this.access = { token: tokens.access_token, expiresAt: this.now() + tokens.expires_in * 1000 };
    if (tokens.refresh_token) this.storage.setItem(REFRESH_TOKEN_KEY, tokens.refresh_token);
  }

  private forget(): void {
    this.access = undefined;
    this.storage.removeItem(REFRESH_TOKEN_KEY);
  }

  private change(state: SessionState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }
}
