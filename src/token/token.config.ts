import type { ConfigType } from '@nestjs/config';
import { IsIn, IsOptional, IsString, Matches, ValidateBy } from 'class-validator';
import { parseDuration } from '../common/duration.js';
import type { AppConfig } from '../config/environment.js';
import { featureConfig } from '../config/feature-config.js';
import { Setting } from '../config/setting.js';
import { durationMs, durationSeconds, IsDuration, IsDurationWithin, IsIntVariable } from '../config/validate-config.js';
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
const SIGNING_KEYS_RELOAD_MS = 60_000;

/**
 * The shortest SIGNING_KEY_PREPUBLISH: two reload intervals, so that every instance, even one whose reload failed
 * once, holds a new key before any instance signs with it.
 */
const MIN_PREPUBLISH_MS = 2 * SIGNING_KEYS_RELOAD_MS;

/** A prepublish time (SIGNING_KEY_PREPUBLISH, WEBHOOK_SIGNING_KEY_PREPUBLISH) of at least two key reloads. */
export function IsPrepublish(variable = 'SIGNING_KEY_PREPUBLISH'): PropertyDecorator {
  return ValidateBy({
    name: 'isPrepublish',
    validator: {
      validate: (value: unknown) => {
        const ms = typeof value === 'string' ? parseDuration(value) : undefined;
        return ms !== undefined && ms >= MIN_PREPUBLISH_MS;
      },
      defaultMessage: () =>
        `${variable} must be a duration of at least ${MIN_PREPUBLISH_MS / 60_000}m like 1h (units ms, s, m, h, d), ` +
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

/** The environment variables of the token module, with their defaults; the issuer comes from AppConfig. */
export class TokenEnvironment {
  /**
   * `on`: the administration client may still sign in with the password grant (older interfaces, scripts); `off`:
   * people sign in only through the authorization code flow, as OAuth 2.1 asks.
   */
  @Setting({ doc: '`off`: people sign in only with the authorization code flow ([tokens](tokens-and-access.md))' })
  @IsIn(['on', 'off'], { message: 'OAUTH_PASSWORD_GRANT must be on or off' })
  OAUTH_PASSWORD_GRANT = 'on';

  @Setting({ doc: 'Access token lifetime (`1m` to `1d`)', bareSeconds: true })
  @IsDuration()
  @IsDurationWithin('1m', '1d')
  ACCESS_TOKEN_TTL = '1h';

  @Setting({ doc: 'A refresh token unused this long expires (at least `1m`)', bareSeconds: true })
  @IsDuration()
  @IsDurationWithin('1m')
  REFRESH_TOKEN_IDLE_TTL = '7d';

  @Setting({ doc: 'No refresh token of a sign-in outlives this (at least `1m`)', bareSeconds: true })
  @IsDuration()
  @IsDurationWithin('1m')
  REFRESH_TOKEN_ABSOLUTE_TTL = '30d';

  /**
   * How long after its first rotation a refresh token may be exchanged again for new tokens of the same sign-in, so
   * that several tabs refreshing at once do not sign each other out; `0`: strictly single use.
   */
  @Setting({
    doc: 'A rotated refresh token may be exchanged again this long (several tabs); `0`: single use; at most `5m`',
    rarelyNeeded: true,
  })
  @IsReuseGrace()
  REFRESH_REUSE_GRACE = '30s';

  @Setting({ doc: 'How long a rotated integration or client secret keeps working', bareSeconds: true })
  @IsDuration()
  SECRET_ROTATION_GRACE = '1d';

  @Setting({ doc: 'How long a signing key signs before a new one takes over (e.g. `90d`); unset: never' })
  @IsOptional()
  @IsDuration()
  SIGNING_KEY_ROTATION?: string;

  /**
   * How long a new signing key is published in the JWKS before it signs, so verifiers' cached key sets (and every
   * instance, which reloads the keys every minute) hold it.
   */
  @Setting({
    doc: 'How long a new key (`npm run cli -- rotate-signing-key`) is in the JWKS before it signs; at least `2m`',
    rarelyNeeded: true,
  })
  @IsPrepublish()
  SIGNING_KEY_PREPUBLISH = '1h';

  /** Failed token requests allowed per account (username or client_id) from one IP address in one window. */
  @Setting({
    doc: 'Failed token requests allowed per account (username or `client_id`) from one IP, per window',
    rarelyNeeded: true,
  })
  @IsIntVariable(1)
  TOKEN_FAILURES_PER_MINUTE = 10;

  /** Failed token requests allowed per account from all addresses together in one window (distributed guessing). */
  @Setting({
    doc: 'Failed token requests allowed per account from all addresses together, per window',
    rarelyNeeded: true,
  })
  @IsIntVariable(1)
  TOKEN_FAILURES_PER_ACCOUNT = 50;

  @Setting({ doc: 'Failed token requests allowed per IP address whatever the account, per window', rarelyNeeded: true })
  @IsIntVariable(1)
  TOKEN_FAILURES_PER_IP = 100;

  @Setting({
    doc: 'The window of those three counts (whole seconds)',
    formerly: 'TOKEN_FAILURE_WINDOW_SECONDS',
    rarelyNeeded: true,
  })
  @IsDuration()
  @IsDurationWithin('1s')
  TOKEN_FAILURE_WINDOW = '1m';

  /** Password hashes (scrypt) computed at once; the rest wait in a queue of PASSWORD_HASH_QUEUE, then get 503. */
  @Setting({ doc: 'Password hashes (scrypt) computed at once', rarelyNeeded: true })
  @IsIntVariable(1, 64)
  PASSWORD_HASH_CONCURRENCY = 2;

  @Setting({
    doc: 'Password checks that may wait for one; beyond that the token endpoint answers 503',
    rarelyNeeded: true,
  })
  @IsIntVariable(0, 10_000)
  PASSWORD_HASH_QUEUE = 16;

  @Setting({
    doc: 'How stale the per-request revocation check may be (at most `1m`)',
    formerly: 'REVOCATION_CACHE_SECONDS',
    rarelyNeeded: true,
  })
  @IsDuration()
  @IsDurationWithin('0s', '1m')
  REVOCATION_CACHE = '5s';

  @Setting({ doc: 'The administrator created on the first start' })
  @Matches(USERNAME_PATTERN, { message: `ADMIN_USERNAME ${USERNAME_RULE}` })
  ADMIN_USERNAME = 'admin';

  @Setting({
    doc: 'Its password (at least 12 characters); unset: a random one is generated and logged once',
  })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(`^.{${PASSWORD_MIN_LENGTH},}$`, 's'), {
    message: `ADMIN_PASSWORD must have at least ${PASSWORD_MIN_LENGTH} characters`,
  })
  ADMIN_PASSWORD?: string;
}

/** The token module's settings from validated variables; durations in seconds unless the name says otherwise. */
function tokenSettings(env: TokenEnvironment, app: Pick<AppConfig, 'issuer'>) {
  return {
    issuer: app.issuer,
    passwordGrant: env.OAUTH_PASSWORD_GRANT === 'on',
    accessTokenTtl: durationSeconds(env.ACCESS_TOKEN_TTL),
    refreshIdleTtl: durationSeconds(env.REFRESH_TOKEN_IDLE_TTL),
    refreshAbsoluteTtl: durationSeconds(env.REFRESH_TOKEN_ABSOLUTE_TTL),
    // Validated by @IsReuseGrace(); should it ever not be, strict single use is the safe reading.
    refreshReuseGraceMs: reuseGraceMs(env.REFRESH_REUSE_GRACE) ?? 0,
    secretRotationGrace: durationSeconds(env.SECRET_ROTATION_GRACE),
    signingKeyRotationMs: env.SIGNING_KEY_ROTATION === undefined ? undefined : durationMs(env.SIGNING_KEY_ROTATION),
    signingKeyPrepublishMs: durationMs(env.SIGNING_KEY_PREPUBLISH),
    signingKeysReloadMs: SIGNING_KEYS_RELOAD_MS,
    failuresPerMinute: env.TOKEN_FAILURES_PER_MINUTE,
    failuresPerAccount: env.TOKEN_FAILURES_PER_ACCOUNT,
    failuresPerIp: env.TOKEN_FAILURES_PER_IP,
    failureWindowSeconds: durationSeconds(env.TOKEN_FAILURE_WINDOW),
    passwordHashConcurrency: env.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueue: env.PASSWORD_HASH_QUEUE,
    revocationCacheMs: durationMs(env.REVOCATION_CACHE),
    adminUsername: env.ADMIN_USERNAME,
    adminPassword: env.ADMIN_PASSWORD,
  };
}

/** The token module's configuration; inject it with `@Inject(tokenConfig.KEY)`. */
export const tokenConfig = featureConfig('token', TokenEnvironment, tokenSettings);

/**
 * Reads and validates the token variables of `raw` (a wrong value stops the start, naming the variable); the app-wide
 * values (the issuer) from `raw` too unless given.
 */
export function loadTokenConfig(raw: Record<string, unknown> = process.env, app?: AppConfig) {
  return tokenConfig.from(raw, app);
}

export type TokenConfig = ConfigType<typeof tokenConfig>;
