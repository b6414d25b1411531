import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InvalidTokenError } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { AccessTokensService } from '../issuing/access-tokens.service.js';
import { SubjectStatusService } from '../revocation/subject-status.service.js';
import { HeaderBearerStrategy } from './header-bearer.strategy.js';

/** Turns a bearer access token into the request's principal, or refuses it. */
@Injectable()
export class BearerStrategy extends PassportStrategy(HeaderBearerStrategy, 'bearer') {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly status: SubjectStatusService,
  ) {
    super();
  }

  async validate(token: string): Promise<Principal> {
    const claims = await this.tokens.verify(token);
    const binding = { sub: claims.sub, ver: claims.ver ?? 0, sid: claims.sid, clientId: claims.client_id };
    if (!(await this.status.accepts(binding))) {
      throw new InvalidTokenError('The access token was revoked.');
    }
    const scopes = claims.scope.split(' ').filter(Boolean);
    return { subject: claims.sub, clientId: claims.client_id, scopes, ...(claims.sid ? { signInId: claims.sid } : {}) };
  }
}
