import { resolve } from 'node:path';
import { parseDuration, parseDurationList } from '../common/duration.js';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateBy,
  validateSync,
  type ValidationArguments,
} from 'class-validator';

const DURATION = /^\d{1,9}(ms|s|m|h|d)$/;
const DURATION_LIST = /^\d{1,9}(ms|s|m|h|d)(,\d{1,9}(ms|s|m|h|d))*$/;

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;

/**
 * The environment variables the service reads, with their defaults.
 * A wrong value stops the start with a message naming the variable.
 */
export class Environment {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  DATA_DIR = './data';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Matches(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, { message: 'DATABASE_SCHEMA must be a plain identifier' })
  DATABASE_SCHEMA?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** The `iss` of access tokens and the issuer of the discovery document; defaults to http://localhost:PORT. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OAUTH_ISSUER?: string;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(86_400)
  ACCESS_TOKEN_TTL = 3600;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  REFRESH_TOKEN_IDLE_TTL = 7 * 86_400;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  REFRESH_TOKEN_ABSOLUTE_TTL = 30 * 86_400;

  /** How long a rotated integration secret keeps working (seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SECRET_ROTATION_GRACE = 86_400;

  /** Failed token requests allowed per account (username or client_id) from one IP address in one window. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TOKEN_FAILURES_PER_MINUTE = 10;

  /** Failed token requests allowed per account from all addresses together in one window (distributed guessing). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TOKEN_FAILURES_PER_ACCOUNT = 50;

  /** Failed token requests allowed per IP address, whatever the account, in one window. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TOKEN_FAILURES_PER_IP = 100;

  /** Password hashes (scrypt) computed at once; the rest wait in a queue of PASSWORD_HASH_QUEUE, then get 503. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  PASSWORD_HASH_CONCURRENCY = 2;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000)
  PASSWORD_HASH_QUEUE = 16;

  /** Open client connections; more are refused so that file descriptors remain for the database and storage. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  HTTP_MAX_CONNECTIONS = 500;

  /** A connection that sends and receives nothing for this long is closed (slow headers, stalled bodies). */
  @Matches(DURATION, { message: 'HTTP_IDLE_TIMEOUT must be a duration like 30s' })
  HTTP_IDLE_TIMEOUT = '30s';

  /** The whole request head must arrive within this time. */
  @Matches(DURATION, { message: 'HTTP_HEADERS_TIMEOUT must be a duration like 20s' })
  HTTP_HEADERS_TIMEOUT = '20s';

  /** An idle keep-alive connection is closed after this time. */
  @Matches(DURATION, { message: 'HTTP_KEEP_ALIVE_TIMEOUT must be a duration like 5s' })
  HTTP_KEEP_ALIVE_TIMEOUT = '5s';

  /**
   * Which proxies in front may name the client's address in X-Forwarded-For (Express's `trust proxy`): a hop count,
   * or addresses, subnets and the names loopback, linklocal, uniquelocal, comma-separated. Unset: none.
   */
  @IsOptional()
  @Matches(/^(\d{1,2}|[0-9A-Za-z.:/]+(,\s*[0-9A-Za-z.:/]+)*)$/, {
    message: 'TRUST_PROXY must be a hop count or a comma-separated list of addresses, subnets or loopback',
  })
  TRUST_PROXY?: string;

  /** The whole request, body included, must arrive within this time (large uploads need long). */
  @Matches(DURATION, { message: 'HTTP_REQUEST_TIMEOUT must be a duration like 1h' })
  HTTP_REQUEST_TIMEOUT = '1h';

  /** The window, in seconds, over which failed token requests are counted. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TOKEN_FAILURE_WINDOW_SECONDS = 60;

  /** How long the revocation state of a token's subject may be cached (seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60)
  REVOCATION_CACHE_SECONDS = 5;

  /** Delays between delivery attempts; the first attempt is always immediate. */
  @Matches(DURATION_LIST, { message: 'WEBHOOK_RETRY_SCHEDULE must be durations like 5s,5m,2h (units ms, s, m, h, d)' })
  WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

  @Matches(DURATION, { message: 'WEBHOOK_TIMEOUT must be a duration like 15s' })
  WEBHOOK_TIMEOUT = '15s';

  /** Development and tests only: allows http and private, loopback and link-local destinations. */
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'false';

  @Matches(DURATION, { message: 'WEBHOOK_SECRET_GRACE must be a duration like 24h' })
  WEBHOOK_SECRET_GRACE = '24h';

  /** An endpoint whose deliveries all failed for this long is disabled. */
  @Matches(DURATION, { message: 'WEBHOOK_DISABLE_AFTER must be a duration like 5d' })
  WEBHOOK_DISABLE_AFTER = '5d';

  @Matches(DURATION, { message: 'WEBHOOK_ATTEMPT_RETENTION must be a duration like 30d' })
  WEBHOOK_ATTEMPT_RETENTION = '30d';

  /** How often due deliveries are looked for (new events are also sent right after their commit). */
  @Matches(DURATION, { message: 'WEBHOOK_POLL_INTERVAL must be a duration like 1s' })
  WEBHOOK_POLL_INTERVAL = '1s';

  /**
   * How long an instance holds a delivery it is sending. At least WEBHOOK_TIMEOUT + 5s (checked at start): an attempt
   * ends at its deadline, and the lease must outlive it by the time recording the result takes.
   */
  @Matches(DURATION, { message: 'WEBHOOK_LEASE must be a duration like 60s' })
  @OutlastsWebhookTimeout()
  WEBHOOK_LEASE = '60s';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_CONCURRENCY = 8;

  /** Deliveries in flight to one endpoint from one instance. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_ENDPOINT_CONCURRENCY = 2;

  /** `off` stops this instance from sending (events are still recorded); for maintenance and tests. */
  @IsIn(['on', 'off'])
  WEBHOOK_DISPATCHER = 'on';

  @Matches(/^[A-Za-z0-9._-]{1,64}$/, {
    message: 'ADMIN_USERNAME must be 1-64 letters, digits, dots, dashes or underscores',
  })
  ADMIN_USERNAME = 'admin';

  @IsOptional()
  @IsString()
  @Matches(/^.{12,}$/s, { message: 'ADMIN_PASSWORD must have at least 12 characters' })
  ADMIN_PASSWORD?: string;
}

/** Between an attempt's deadline and its lease's end: time to record the result before another instance may claim. */
const LEASE_MARGIN_MS = 5_000;

/** Refuses a WEBHOOK_LEASE that could expire while an attempt is still within WEBHOOK_TIMEOUT (a second send). */
function OutlastsWebhookTimeout(): PropertyDecorator {
  return ValidateBy({
    name: 'outlastsWebhookTimeout',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const lease = typeof value === 'string' ? parseDuration(value) : undefined;
        const timeout = parseDuration(String((args?.object as Partial<Environment>).WEBHOOK_TIMEOUT));
        return lease === undefined || timeout === undefined || lease >= timeout + LEASE_MARGIN_MS;
      },
      defaultMessage: (args?: ValidationArguments) =>
        `WEBHOOK_LEASE must be at least WEBHOOK_TIMEOUT + 5s (WEBHOOK_TIMEOUT is ${String((args?.object as Partial<Environment>).WEBHOOK_TIMEOUT)})`,
    },
  });
}

/** Webhook delivery settings; durations in milliseconds. */
export interface WebhooksConfig {
  retrySchedule: number[];
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  secretGraceMs: number;
  disableAfterMs: number;
  attemptRetentionMs: number;
  pollIntervalMs: number;
  leaseMs: number;
  concurrency: number;
  endpointConcurrency: number;
  dispatcher: boolean;
}

/** Limits of the HTTP server; durations in milliseconds. */
export interface HttpConfig {
  maxConnections: number;
  idleTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  requestTimeoutMs: number;
}

/** Token issuance settings; durations in seconds. */
export interface OAuthConfig {
  issuer: string;
  accessTokenTtl: number;
  refreshIdleTtl: number;
  refreshAbsoluteTtl: number;
  secretRotationGrace: number;
  failuresPerMinute: number;
  failuresPerAccount: number;
  failuresPerIp: number;
  failureWindowSeconds: number;
  passwordHashConcurrency: number;
  passwordHashQueue: number;
  revocationCacheMs: number;
  adminUsername: string;
  adminPassword?: string;
}

/** Values derived from the environment that the rest of the service reads (also its DI token). */
export class AppConfig {
  readonly port: number;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly databaseSchema?: string;
  readonly sqlitePath: string;
  readonly logLevel: string;
  readonly oauth: OAuthConfig;
  readonly http: HttpConfig;
  /** Express's `trust proxy` setting, when proxies are trusted. */
  readonly trustProxy?: number | string;
  readonly webhooks: WebhooksConfig;

  constructor(env: Environment) {
    this.port = env.PORT;
    this.dataDir = resolve(env.DATA_DIR);
    this.databaseUrl = env.DATABASE_URL;
    this.databaseSchema = env.DATABASE_SCHEMA;
    this.sqlitePath = resolve(this.dataDir, 'app.sqlite');
    this.logLevel = env.LOG_LEVEL;
    this.webhooks = {
      retrySchedule: parseDurationList(env.WEBHOOK_RETRY_SCHEDULE) ?? [],
      timeoutMs: parseDuration(env.WEBHOOK_TIMEOUT) ?? 15_000,
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
      secretGraceMs: parseDuration(env.WEBHOOK_SECRET_GRACE) ?? 0,
      disableAfterMs: parseDuration(env.WEBHOOK_DISABLE_AFTER) ?? 0,
      attemptRetentionMs: parseDuration(env.WEBHOOK_ATTEMPT_RETENTION) ?? 0,
      pollIntervalMs: parseDuration(env.WEBHOOK_POLL_INTERVAL) ?? 1000,
      leaseMs: parseDuration(env.WEBHOOK_LEASE) ?? 60_000,
      concurrency: env.WEBHOOK_CONCURRENCY,
      endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
      dispatcher: env.WEBHOOK_DISPATCHER === 'on',
    };
    this.trustProxy = /^\d+$/.test(env.TRUST_PROXY ?? '') ? Number(env.TRUST_PROXY) : env.TRUST_PROXY;
    this.http = {
      maxConnections: env.HTTP_MAX_CONNECTIONS,
      idleTimeoutMs: parseDuration(env.HTTP_IDLE_TIMEOUT) ?? 30_000,
      headersTimeoutMs: parseDuration(env.HTTP_HEADERS_TIMEOUT) ?? 20_000,
      keepAliveTimeoutMs: parseDuration(env.HTTP_KEEP_ALIVE_TIMEOUT) ?? 5_000,
      requestTimeoutMs: parseDuration(env.HTTP_REQUEST_TIMEOUT) ?? 3_600_000,
    };
    this.oauth = {
      issuer: (env.OAUTH_ISSUER ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
      accessTokenTtl: env.ACCESS_TOKEN_TTL,
      refreshIdleTtl: env.REFRESH_TOKEN_IDLE_TTL,
      refreshAbsoluteTtl: env.REFRESH_TOKEN_ABSOLUTE_TTL,
      secretRotationGrace: env.SECRET_ROTATION_GRACE,
      failuresPerMinute: env.TOKEN_FAILURES_PER_MINUTE,
      failuresPerAccount: env.TOKEN_FAILURES_PER_ACCOUNT,
      failuresPerIp: env.TOKEN_FAILURES_PER_IP,
      passwordHashConcurrency: env.PASSWORD_HASH_CONCURRENCY,
      passwordHashQueue: env.PASSWORD_HASH_QUEUE,
      failureWindowSeconds: env.TOKEN_FAILURE_WINDOW_SECONDS,
      revocationCacheMs: env.REVOCATION_CACHE_SECONDS * 1000,
      adminUsername: env.ADMIN_USERNAME,
      adminPassword: env.ADMIN_PASSWORD,
    };
  }
}

/** Validates raw environment variables, throwing one message that names every bad variable. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  const env = plainToInstance(Environment, defined, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')} (got ${JSON.stringify(e.value)})`,
    );
    throw new Error(`Invalid environment configuration:\n  ${lines.join('\n  ')}`);
  }
  return env;
}

/** Reads and validates `process.env` (or the given variables). */
export function loadAppConfig(raw: Record<string, unknown> = process.env): AppConfig {
  return new AppConfig(validateEnvironment(raw));
}
