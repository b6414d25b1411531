import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { InvalidTokenError } from '../common/auth/auth.errors.js';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/environment.js';
import type { TokenResponse } from './grants/grant.js';
import { SIGNING_ALGORITHM, SigningKeysService } from './signing-keys.service.js';

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
}

export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** Signs and verifies JWT access tokens with the shared ES256 keys. */
@Injectable()
export class AccessTokensService {
  constructor(
    private readonly jwt: JwtService,
    private readonly keys: SigningKeysService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  get ttl(): number {
    return this.config.oauth.accessTokenTtl;
  }

  async issue(subject: string, clientId: string, scope: string, version = 0): Promise<string> {
    const key = this.keys.current();
    const iat = Math.floor(this.clock.nowMs() / 1000);
    const { issuer } = this.config.oauth;
    const claims = {
      iss: issuer,
      sub: subject,
      aud: issuer,
      client_id: clientId,
      scope,
      jti: randomUUID(),
      iat,
      exp: iat + this.ttl,
      ver: version,
    };
    return this.jwt.signAsync(claims, {
      privateKey: key.privateKey,
      algorithm: SIGNING_ALGORITHM,
      header: { alg: SIGNING_ALGORITHM, typ: ACCESS_TOKEN_TYPE, kid: key.kid },
    });
  }

  /** A successful token endpoint response around a fresh access token (RFC 6749 §5.1). */
  async respond(grant: {
    subject: string;
    clientId: string;
    scope: string;
    version?: number;
    refreshToken?: string;
  }): Promise<TokenResponse> {
    const accessToken = await this.issue(grant.subject, grant.clientId, grant.scope, grant.version);
    const refresh = grant.refreshToken === undefined ? {} : { refresh_token: grant.refreshToken };
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.ttl, scope: grant.scope, ...refresh };
  }

  /** The token's claims, or InvalidTokenError for anything wrong with it. */
  async verify(token: string): Promise<AccessTokenClaims> {
    const decoded = this.decodeHeader(token);
    const key = decoded?.kid ? this.keys.find(decoded.kid) : undefined;
    if (!decoded || decoded.typ !== ACCESS_TOKEN_TYPE || !key)
      throw new InvalidTokenError('The access token is malformed.');
    try {
      return await this.jwt.verifyAsync<AccessTokenClaims>(token, {
        publicKey: key.publicKey,
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.config.oauth.issuer,
        audience: this.config.oauth.issuer,
        clockTimestamp: Math.floor(this.clock.nowMs() / 1000),
      });
    } catch (error) {
      const expired = (error as { name?: string }).name === 'TokenExpiredError';
      throw new InvalidTokenError(expired ? 'The access token expired.' : 'The access token is invalid.');
    }
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
