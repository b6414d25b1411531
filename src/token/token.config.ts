import { registerAs, type ConfigType } from '@nestjs/config';
import { IsIn, IsOptional, IsString, IsUrl, Matches, ValidateBy } from 'class-validator';
import { parseDuration } from '../common/duration.js';
import { localUrl } from '../config/local-url.js';
import { durationMs, IsDuration, IsIntVariable, validateConfig } from '../config/validate-config.js';
import { PASSWORD_MIN_LENGTH, USERNAME_PATTERN, USERNAME_RULE } from './account-rules.js';

/**
 * The longest REFRESH_REUSE_GRACE: the grace lets a spent token be exchanged again, so reuse detection is blind for
 * that long after each rotation; concurrent tabs need seconds, not minutes.
 */
const MAX_REUSE_GRACE_MS = 5 * 60_000;

/** `0` or a duration of at most 5 minutes, in milliseconds; undefined for anything else. */
function reuseGraceMs(text: string): number | undefined {
  if (text.trim() === '0') return 0;
  const ms = parseDuration(text);
  return ms !== undefined && ms <= MAX_REUSE_GRACE_MS ? ms : undefined;
}

/** How often every instance reloads the signing keys (and checks whether a scheduled rotation is due). */
export const SIGNING_KEYS_RELOAD_MS = 60_000;

/**
 * The shortest SIGNING_KEY_PREPUBLISH: two reload intervals, so that every instance, even one whose reload failed
 * once, holds a new key before any instance signs with it.
 */
const MIN_PREPUBLISH_MS = 2 * SIGNING_KEYS_RELOAD_MS;

function IsPrepublish(): PropertyDecorator {
  return ValidateBy({
    name: 'isPrepublish',
    validator: {
      validate: (value: unknown) => {
        const ms = typeof value === 'string' ? parseDuration(value) : undefined;
        return ms !== undefined && ms >= MIN_PREPUBLISH_MS;
      },
      defaultMessage: () =>
        `SIGNING_KEY_PREPUBLISH must be a duration of at least ${MIN_PREPUBLISH_MS / 60_000}m like 1h (units ms, s, m, h, d), ` +
        'longer than the instances take to reload the keys',
    },
  });
}

function IsReuseGrace(): PropertyDecorator {
  return ValidateBy({
    name: 'isReuseGrace',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && reuseGraceMs(value) !== undefined,
      defaultMessage: () => 'REFRESH_REUSE_GRACE must be 0 or a duration of at most 5m like 30s (units ms, s, m)',
    },
  });
}

/** The environment variables of the token module, with their defaults. */
export class TokenEnvironment {
  /** Read only for the default issuer (validated with the app-wide variables). */
  @IsIntVariable(0, 65535)
  PORT = 3000;

  /** Read only for the default issuer (validated with the app-wide variables). */
  @IsString()
  HOST = '127.0.0.1';

  /**
   * The `iss` of access tokens, the issuer of the discovery document and the base of file URLs. Unset: the address
   * the service logs, http://HOST:PORT (127.0.0.1 for a wildcard HOST; see localUrl).
   */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OAUTH_ISSUER?: string;

  /**
   * `on`: the administration client may still sign in with the password grant (older interfaces, scripts); `off`:
   * people sign in only through the authorization code flow, as OAuth 2.1 asks.
   */
  @IsIn(['on', 'off'], { message: 'OAUTH_PASSWORD_GRANT must be on or off' })
  OAUTH_PASSWORD_GRANT = 'on';

  @IsIntVariable(60, 86_400)
  ACCESS_TOKEN_TTL = 3600;

  @IsIntVariable(60)
  REFRESH_TOKEN_IDLE_TTL = 7 * 86_400;

  @IsIntVariable(60)
  REFRESH_TOKEN_ABSOLUTE_TTL = 30 * 86_400;

  /**
   * How long after its first rotation a refresh token may be exchanged again for new tokens of the same sign-in, so
   * that several tabs refreshing at once do not sign each other out; `0`: strictly single use.
   */
  @IsReuseGrace()
  REFRESH_REUSE_GRACE = '30s';

  /** How long a rotated integration secret keeps working (seconds). */
  @IsIntVariable(0)
  SECRET_ROTATION_GRACE = 86_400;

  /** How long a signing key signs before a new one takes over (a duration like 90d); unset: never rotate. */
  @IsOptional()
  @IsDuration()
  SIGNING_KEY_ROTATION?: string;

  /**
   * How long a new signing key is published in the JWKS before it signs, so verifiers' cached key sets (and every
   * instance, which reloads the keys every minute) hold it.
   */
  @IsPrepublish()
  SIGNING_KEY_PREPUBLISH = '1h';

  /** Failed token requests allowed per account (username or client_id) from one IP address in one window. */
  @IsIntVariable(1)
  TOKEN_FAILURES_PER_MINUTE = 10;

  /** Failed token requests allowed per account from all addresses together in one window (distributed guessing). */
  @IsIntVariable(1)
  TOKEN_FAILURES_PER_ACCOUNT = 50;

  /** Failed token requests allowed per IP address, whatever the account, in one window. */
  @IsIntVariable(1)
  TOKEN_FAILURES_PER_IP = 100;

  /** The window, in seconds, over which failed token requests are counted. */
  @IsIntVariable(1)
  TOKEN_FAILURE_WINDOW_SECONDS = 60;

  /** Password hashes (scrypt) computed at once; the rest wait in a queue of PASSWORD_HASH_QUEUE, then get 503. */
  @IsIntVariable(1, 64)
  PASSWORD_HASH_CONCURRENCY = 2;

  @IsIntVariable(0, 10_000)
  PASSWORD_HASH_QUEUE = 16;

  /** How long the revocation state of a token's subject may be cached (seconds). */
  @IsIntVariable(0, 60)
  REVOCATION_CACHE_SECONDS = 5;

  @Matches(USERNAME_PATTERN, { message: `ADMIN_USERNAME ${USERNAME_RULE}` })
  ADMIN_USERNAME = 'admin';

  @IsOptional()
  @IsString()
  @Matches(new RegExp(`^.{${PASSWORD_MIN_LENGTH},}$`, 's'), {
    message: `ADMIN_PASSWORD must have at least ${PASSWORD_MIN_LENGTH} characters`,
  })
  ADMIN_PASSWORD?: string;
}

/** The token module's settings from validated variables; durations in seconds unless the name says otherwise. */
export function tokenSettings(env: TokenEnvironment) {
  return {
    issuer: (env.OAUTH_ISSUER ?? localUrl(env.HOST, env.PORT)).replace(/\/+$/, ''),
    passwordGrant: env.OAUTH_PASSWORD_GRANT === 'on',
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    refreshIdleTtl: env.REFRESH_TOKEN_IDLE_TTL,
    refreshAbsoluteTtl: env.REFRESH_TOKEN_ABSOLUTE_TTL,
    // Validated by @IsReuseGrace(); should it ever not be, strict single use is the safe reading.
    refreshReuseGraceMs: reuseGraceMs(env.REFRESH_REUSE_GRACE) ?? 0,
    secretRotationGrace: env.SECRET_ROTATION_GRACE,
    signingKeyRotationMs: env.SIGNING_KEY_ROTATION === undefined ? undefined : durationMs(env.SIGNING_KEY_ROTATION),
    signingKeyPrepublishMs: durationMs(env.SIGNING_KEY_PREPUBLISH),
    failuresPerMinute: env.TOKEN_FAILURES_PER_MINUTE,
    failuresPerAccount: env.TOKEN_FAILURES_PER_ACCOUNT,
    failuresPerIp: env.TOKEN_FAILURES_PER_IP,
    failureWindowSeconds: env.TOKEN_FAILURE_WINDOW_SECONDS,
    passwordHashConcurrency: env.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueue: env.PASSWORD_HASH_QUEUE,
    revocationCacheMs: env.REVOCATION_CACHE_SECONDS * 1000,
    adminUsername: env.ADMIN_USERNAME,
    adminPassword: env.ADMIN_PASSWORD,
  };
}

/** Reads and validates the token variables of `raw` (a wrong value stops the start, naming the variable). */
export function loadTokenConfig(raw: Record<string, unknown> = process.env) {
  return tokenSettings(validateConfig(TokenEnvironment, raw));
}

/** The token module's configuration; inject it with `@Inject(tokenConfig.KEY)`. */
export const tokenConfig = registerAs('token', () => loadTokenConfig(process.env));

export type TokenConfig = ConfigType<typeof tokenConfig>;
