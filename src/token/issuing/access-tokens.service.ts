import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID, sign, type KeyObject } from 'node:crypto';
import { InvalidTokenError, Clock } from '@file-fields/nest';
import { BoundedCache } from '../../common/bounded-cache.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { SIGNING_ALGORITHM, SigningKeysService } from './signing-keys.service.js';

/** The successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** The claims of an access token (RFC 9068). */
export interface AccessTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  client_id: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
  /** The subject's token version when issued (see SubjectStatusService). */
  ver: number;
  /** User tokens: the sign-in (refresh-token family) they belong to. */
  sid?: string;
}

/** How far in the future an `iat` may lie (clock skew between instances). */
const IAT_SKEW_SECONDS = 60;

const ACCESS_TOKEN_TYPE = 'at+jwt';

/** Verified tokens remembered at once (a few MB at most). */
const VERIFIED_LIMIT = 5_000;

/**
 * Signs and verifies JWT access tokens with the shared ES256 keys. A token verified once is remembered, by its whole
 * text, until it expires (or its key is no longer published): a client sending the same token again skips the
 * signature check. Whether its subject may still use it is asked anew on every request (SubjectStatusService).
 */
@Injectable()
export class AccessTokensService {
  private readonly verified = new BoundedCache<{ claims: AccessTokenClaims; kid: string }>(VERIFIED_LIMIT);

  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeysService,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
    private readonly clock: Clock,
  ) {}

  get ttl(): number {
    return this.config.accessTokenTtl;
  }

  /**
   * A signed access token. The JWS (RFC 7515, compact form) is put together here and its ES256 signature made by
   * `crypto.sign` with a callback, on libuv's thread pool: the signature is most of a token request's own work, and
   * the event loop serves other requests meanwhile. Verification stays with @nestjs/jwt.
   */
  async issue(subject: string, clientId: string, scope: string, version = 0, signInId?: string): Promise<string> {
    const key = this.keys.current();
    const iat = Math.floor(this.clock.nowMs() / 1000);
    const { issuer } = this.config;
    const claims: AccessTokenClaims = {
      iss: issuer,
      sub: subject,
      aud: issuer,
      client_id: clientId,
      scope,
      jti: randomUUID(),
      iat,
      exp: iat + this.ttl,
      ver: version,
      ...(signInId === undefined ? {} : { sid: signInId }),
    };
    const header = { alg: SIGNING_ALGORITHM, typ: ACCESS_TOKEN_TYPE, kid: key.kid };
    const input = `${base64url(header)}.${base64url(claims)}`;
    return `${input}.${(await es256(input, key.privateKey)).toString('base64url')}`;
  }

  /** A successful token endpoint response around a fresh access token (RFC 6749 §5.1). */
  async respond(grant: {
    subject: string;
    clientId: string;
    scope: string;
    version?: number;
    refreshToken?: string;
    signInId?: string;
  }): Promise<TokenResponse> {
    const { subject, clientId, scope, version, signInId } = grant;
    const accessToken = await this.issue(subject, clientId, scope, version, signInId);
    const refresh = grant.refreshToken === undefined ? {} : { refresh_token: grant.refreshToken };
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.ttl, scope: grant.scope, ...refresh };
  }

  /** The token's claims, or InvalidTokenError for anything wrong with it. */
  async verify(token: string): Promise<AccessTokenClaims> {
    const nowMs = this.clock.nowMs();
    const remembered = this.verified.get(token, nowMs);
    if (remembered && this.keys.find(remembered.kid)) return remembered.claims;
    const verified = await this.verifySignatureAndClaims(token);
    this.verified.set(token, verified, verified.claims.exp * 1000);
    return verified.claims;
  }

  private async verifySignatureAndClaims(token: string): Promise<{ claims: AccessTokenClaims; kid: string }> {
    const decoded = this.decodeHeader(token);
    if (!decoded?.kid || decoded.typ !== ACCESS_TOKEN_TYPE)
      throw new InvalidTokenError('The access token is malformed.');
    // A kid not loaded here may be a key another instance has just added: the keys are reloaded (rate-limited).
    const key = await this.keys.findFresh(decoded.kid);
    if (!key) throw new InvalidTokenError('The access token is malformed.');
    let claims: unknown;
    try {
      claims = this.jwt.verify<AccessTokenClaims>(token, {
        // jsonwebtoken takes the parsed KeyObject; @nestjs/jwt's option type still names only PEM strings.
        publicKey: key.publicKey as unknown as string,
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.config.issuer,
        audience: this.config.issuer,
        clockTimestamp: Math.floor(this.clock.nowMs() / 1000),
      });
    } catch (error) {
      const expired = (error as { name?: string }).name === 'TokenExpiredError';
      throw new InvalidTokenError(expired ? 'The access token expired.' : 'The access token is invalid.');
    }
    return { claims: this.wellFormed(claims), kid: key.kid };
  }

  /**
   * A correctly signed token is still refused unless it has the claims this service issues, an `exp`, an `iat` not
   * in the future, and a lifetime no longer than ACCESS_TOKEN_TTL: a leaked signing key or a bug must not mint
   * tokens that live forever.
   */
  private wellFormed(claims: unknown): AccessTokenClaims {
    const c = claims as Partial<Record<keyof AccessTokenClaims, unknown>>;
    const now = Math.floor(this.clock.nowMs() / 1000);
    const strings = [c.sub, c.client_id, c.scope, c.jti].every((value) => typeof value === 'string');
    const times = Number.isInteger(c.iat) && Number.isInteger(c.exp);
    if (!strings || !times || !Number.isInteger(c.ver ?? 0) || !['string', 'undefined'].includes(typeof c.sid)) {
      throw new InvalidTokenError('The access token lacks required claims.');
    }
    const { iat, exp } = c as { iat: number; exp: number };
    if (iat > now + IAT_SKEW_SECONDS || exp - iat > this.ttl) {
      throw new InvalidTokenError('The access token has an impossible lifetime.');
    }
    return claims as AccessTokenClaims;
  }

  private decodeHeader(token: string): { kid?: string; typ?: string } | undefined {
    try {
      const decoded = this.jwt.decode<{ header?: { kid?: string; typ?: string } } | null>(token, { complete: true });
      return decoded?.header;
    } catch {
      return undefined;
    }
  }
}

const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An ES256 signature (JWS form: r and s, 32 bytes each) over `input`, made on the thread pool. */
function es256(input: string, key: KeyObject): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }, (error, signature) =>
      error ? reject(error) : resolve(signature),
    );
  });
}
