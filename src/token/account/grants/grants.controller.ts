import { Controller, Delete, Get, HttpCode, Param, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuditTrail, originOf } from '../../../audit/index.js';
import { Authenticated, CurrentPrincipal, ApiProblems } from '@file-fields/nest';
import type { Page } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import { ListQueryDto } from '@file-fields/nest';
import { GrantDto, GrantPageDto } from './grants.dto.js';
import { OAuthGrantsService } from './oauth-grants.service.js';

/** The applications the caller allowed to act for them (the consent page of the authorization endpoint). */
@ApiTags('account')
@Controller('api/me/grants')
export class GrantsController {
  constructor(
    private readonly grants: OAuthGrantsService,
    private readonly trail: AuditTrail,
  ) {}

  @Get()
  @Authenticated()
  @ApiOkResponse({ type: GrantPageDto })
  @ApiOperation({
    operationId: 'listMyGrants',
    summary: 'The applications the signed-in user allowed, with the permissions allowed to each',
    description:
      'Any valid token may read it; only people give consent, so an integration’s list is always empty. The ' +
      'administration interface needs no consent and is never listed. A token issued to a registered application ' +
      'lists only the grant to that application, not what the person allowed others.',
  })
  @ApiProblems(400)
  async list(@Query() query: ListQueryDto, @CurrentPrincipal() principal: Principal): Promise<Page<GrantDto>> {
    const page = await this.grants.list(principal, query.limit, query.offset);
    return { ...page, items: page.items.map((grant) => GrantDto.from(grant)) };
  }

  @Delete(':clientId')
  @HttpCode(204)
  @Authenticated()
  @ApiParam({
    name: 'clientId',
    description: 'The client_id of the application',
    example: 'app_Xq3bV0m7hZ1kLw9pRt2sYa',
  })
  @ApiNoContentResponse({
    description:
      'Revoked: the consent is forgotten (the next sign-in there asks again) and every sign-in the user made at the ' +
      'application ends: its refresh tokens fail and its access tokens are refused at once',
  })
  @ApiOperation({ operationId: 'revokeMyGrant', summary: 'Withdraw a consent given to an application' })
  @ApiProblems([
    404,
    'The caller gave no consent to this client (an integration never has any), or the token is another ' +
      'application’s: an application withdraws only its own grant',
  ])
  async revoke(
    @Param('clientId') clientId: string,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<void> {
    await this.grants.revoke(principal, clientId);
    await this.trail.record({
      ...originOf(request),
      actor: principal.subject,
      clientId: principal.clientId,
      action: 'oauth-grant.revoke',
      targetType: 'oauth-client',
      targetId: clientId,
    });
  }
}
