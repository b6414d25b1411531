import { IsIn, isFQDN, isIP, IsOptional, IsString, IsUrl, Matches, ValidateBy } from 'class-validator';
import { resolve } from 'node:path';
import { localUrl } from './local-url.js';
import { Setting } from './setting.js';
import { durationMs, IsDuration, IsIntVariable, validateConfig } from './validate-config.js';

const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The app-wide environment variables (address, data directory, database, logging, HTTP limits), with their defaults:
 * read here once, and injected as {@link AppConfig} where a feature needs them. Each feature validates its own
 * variables when it loads (files.config.ts, token.config.ts, webhooks.config.ts, audit.config.ts). A wrong value stops
 * the start with a message naming the variable.
 */
export class Environment {
  @Setting({ doc: 'HTTP port; `0` takes a free port' })
  @IsIntVariable(0, 65535)
  PORT = 3000;

  /**
   * The address the HTTP server listens on. Loopback by default, so that a start on a workstation is not open to its
   * network; `0.0.0.0` (or `::`) in a container, or for clients and proxies on other machines.
   */
  @Setting({
    doc: 'Address to listen on: loopback only by default; `0.0.0.0` (or `::`) in a container or for other machines',
  })
  @ValidateBy({
    name: 'isHost',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (isIP(value) || isFQDN(value, { require_tld: false })),
      defaultMessage: () => 'HOST must be an IP address or a host name',
    },
  })
  HOST = '127.0.0.1';

  @Setting({
    doc: 'Where the embedded database and the files live. Two instances with different `DATA_DIR`s share nothing.',
  })
  @IsString()
  DATA_DIR = './data';

  /**
   * The `iss` of access tokens, the issuer of the discovery document and the base of file URLs. Unset: the address
   * the service logs, http://HOST:PORT (127.0.0.1 for a wildcard HOST; see localUrl).
   */
  @Setting({
    doc: 'Public URL: `iss`/`aud` of tokens, discovery document, base of file URLs; see [one address](#one-address)',
    shownDefault: '`http://$HOST:$PORT`',
  })
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OAUTH_ISSUER?: string;

  @Setting({
    doc: 'Unset: SQLite at `$DATA_DIR/app.sqlite`. `postgres://user:pass@host:5432/db`: PostgreSQL, no code change.',
  })
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @Setting({ doc: 'PostgreSQL schema to use', shownDefault: '`public`', rarelyNeeded: true })
  @IsOptional()
  @Matches(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, { message: 'DATABASE_SCHEMA must be a plain identifier' })
  DATABASE_SCHEMA?: string;

  @Setting({ doc: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`' })
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** How log lines are written. Unset: pretty when stdout is a terminal, JSON otherwise (a file, a collector). */
  @Setting({
    doc: '`pretty` (readable lines) or `json` (one object per line); unset: pretty on a terminal, JSON otherwise',
  })
  @IsOptional()
  @IsIn(LOG_FORMATS, { message: 'LOG_FORMAT must be json or pretty, or unset' })
  LOG_FORMAT?: LogFormat;

  /** Open client connections; more are refused so that file descriptors remain for the database and storage. */
  @Setting({
    doc: 'Open client connections; more are refused (keep it well below the file descriptor limit)',
    rarelyNeeded: true,
  })
  @IsIntVariable(1)
  HTTP_MAX_CONNECTIONS = 500;

  /**
   * Open connections from one client address (trusted proxies, TRUST_PROXY, excepted): one client cannot take every
   * place of HTTP_MAX_CONNECTIONS.
   */
  @Setting({
    doc: 'Open connections from one client address (not counted for `TRUST_PROXY` proxies); more are refused',
    rarelyNeeded: true,
  })
  @IsIntVariable(1)
  HTTP_MAX_CONNECTIONS_PER_ADDRESS = 100;

  /** A connection that sends and receives nothing for this long is closed (slow headers, stalled bodies). */
  @Setting({ doc: 'A connection that sends and receives nothing this long is closed', rarelyNeeded: true })
  @IsDuration()
  HTTP_IDLE_TIMEOUT = '30s';

  @Setting({ doc: 'The request head must arrive within this time', rarelyNeeded: true })
  @IsDuration()
  HTTP_HEADERS_TIMEOUT = '20s';

  @Setting({ doc: 'An idle keep-alive connection is closed after this time', rarelyNeeded: true })
  @IsDuration()
  HTTP_KEEP_ALIVE_TIMEOUT = '5s';

  @Setting({
    doc: 'The whole request, body included, must arrive within this time (large uploads need long)',
    rarelyNeeded: true,
  })
  @IsDuration()
  HTTP_REQUEST_TIMEOUT = '1h';

  @Setting({
    doc: 'A body that is not an upload (JSON, a form) must arrive within this time of the request head',
    rarelyNeeded: true,
  })
  @IsDuration()
  HTTP_BODY_TIMEOUT = '30s';

  /**
   * Which proxies in front may name the client's address in X-Forwarded-For (Express's `trust proxy`): a hop count,
   * or addresses, subnets and the names loopback, linklocal, uniquelocal, comma-separated. Unset: none.
   */
  @Setting({ doc: 'Proxies whose `X-Forwarded-For` names the client: `loopback`, a hop count, or addresses/subnets' })
  @IsOptional()
  @Matches(/^(\d{1,2}|[0-9A-Za-z.:/]+(,\s*[0-9A-Za-z.:/]+)*)$/, {
    message: 'TRUST_PROXY must be a hop count or a comma-separated list of addresses, subnets or loopback',
  })
  TRUST_PROXY?: string;

  /**
   * The key (base64, 32 bytes) that encrypts the signing keys and webhook secrets in the database. Required with
   * PostgreSQL; on the embedded SQLite default, generated into DATA_DIR/secrets.key when unset.
   */
  @Setting({
    doc: 'Key (32 bytes, base64) encrypting stored signing keys and webhook secrets; required with PostgreSQL',
  })
  @IsOptional()
  @IsString()
  SECRETS_KEY?: string;

  /**
   * A Redis server shared by every instance (redis:// or rediss://): token failure limits and revocations then hold
   * across instances. Unset: both stay in this instance's memory.
   */
  @Setting({ doc: 'Redis shared by every instance: failure limits and revocations across instances' })
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Prefix of every Redis key and channel, so that several services (or test runs) can share one server. */
  @Setting({
    doc: "Prefix of the service's Redis keys and channels (several services on one server)",
    rarelyNeeded: true,
  })
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'REDIS_KEY_PREFIX must be 1-64 letters, digits or _ . : -' })
  REDIS_KEY_PREFIX = 'ffs';

  /**
   * A Redis command that takes longer marks Redis as failing: the instance then falls back on its own state until a
   * probe answers (see GuardedRedis). A healthy Redis answers in far less; raise it only for a slow network.
   */
  @Setting({
    doc: 'A Redis command slower than this marks Redis as failing: per-instance state until a probe answers',
    rarelyNeeded: true,
  })
  @IsDuration()
  REDIS_COMMAND_TIMEOUT = '250ms';
}

/** Limits of the HTTP server; durations in milliseconds. */
export interface HttpConfig {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  idleTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  requestTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** App-wide values derived from the environment (also their DI token). */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /**
   * The service's public URL, without a trailing slash: OAUTH_ISSUER, or the address it logs (see localUrl). Tokens,
   * the discovery document and file URLs name it.
   */
  readonly issuer: string;
  /** Whether OAUTH_ISSUER names the issuer (rather than HOST and PORT). */
  readonly issuerIsSet: boolean;
  readonly databaseUrl?: string;
  readonly databaseSchema?: string;
  readonly sqlitePath: string;
  readonly logLevel: string;
  /** LOG_FORMAT when set; unset, the format follows stdout (see chooseLogFormat). */
  readonly logFormat?: LogFormat;
  readonly http: HttpConfig;
  /** Express's `trust proxy` setting, when proxies are trusted. */
  readonly trustProxy?: number | string;
  /** SECRETS_KEY as given (base64); checked and resolved by the secrets feature. */
  readonly secretsKey?: string;
  /** The shared Redis server, if any, and the prefix of this service's keys and channels there. */
  readonly redis?: { url: string; keyPrefix: string; commandTimeoutMs: number };

  constructor(env: Environment) {
    this.port = env.PORT;
    this.host = env.HOST;
    this.dataDir = resolve(env.DATA_DIR);
    this.issuer = (env.OAUTH_ISSUER ?? localUrl(env.HOST, env.PORT)).replace(/\/+$/, '');
    this.issuerIsSet = env.OAUTH_ISSUER !== undefined;
    this.databaseUrl = env.DATABASE_URL;
    this.databaseSchema = env.DATABASE_SCHEMA;
    this.sqlitePath = resolve(this.dataDir, 'app.sqlite');
    this.logLevel = env.LOG_LEVEL;
    this.logFormat = env.LOG_FORMAT;
    this.secretsKey = env.SECRETS_KEY;
    this.trustProxy = /^\d+$/.test(env.TRUST_PROXY ?? '') ? Number(env.TRUST_PROXY) : env.TRUST_PROXY;
    this.redis = env.REDIS_URL
      ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX, commandTimeoutMs: durationMs(env.REDIS_COMMAND_TIMEOUT) }
      : undefined;
    this.http = {
      maxConnections: env.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      idleTimeoutMs: durationMs(env.HTTP_IDLE_TIMEOUT),
      headersTimeoutMs: durationMs(env.HTTP_HEADERS_TIMEOUT),
      keepAliveTimeoutMs: durationMs(env.HTTP_KEEP_ALIVE_TIMEOUT),
      requestTimeoutMs: durationMs(env.HTTP_REQUEST_TIMEOUT),
      bodyTimeoutMs: durationMs(env.HTTP_BODY_TIMEOUT),
    };
  }
}

/** Validates raw environment variables, throwing one message that names every bad variable. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  return validateConfig(Environment, raw);
}

/** Reads and validates `process.env` (or the given variables). */
export function loadAppConfig(raw: Record<string, unknown> = process.env): AppConfig {
  return new AppConfig(validateEnvironment(raw));
}
