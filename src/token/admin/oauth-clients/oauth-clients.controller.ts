import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Audited, AuditTrail, originOf } from '../../../audit/index.js';
import { RequirePermission, CurrentPrincipal, Clock, ApiProblems } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import { CreateOAuthClientDto, OAuthClientDto, OAuthClientPageDto, UpdateOAuthClientDto } from './oauth-clients.dto.js';
import { OAuthClientsService } from './oauth-clients.service.js';
import { OAuthClientsQueryDto } from '../admin-lists.js';

const CLIENT_ID_PARAM = { name: 'id', description: 'The client_id', example: 'app_Xq3bV0m7hZ1kLw9pRt2sYa' };
const ESCALATION = [
  403,
  'The token lacks oauth-client:write, or a permission of the client’s ceiling (privilege-escalation)',
] as const;
const NOT_FOUND = [404, 'No such OAuth client (the built-in administration client is not one)'] as const;

/**
 * Settings > system > applications: clients of the authorization code flow besides the administration interface.
 * The route parameter is named `id` so that the audit trail records the client_id as the target.
 */
@ApiTags('oauth-clients')
@Controller('api/oauth/clients')
export class OAuthClientsController {
  constructor(
    private readonly clients: OAuthClientsService,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  private view(client: Parameters<typeof OAuthClientDto.from>[0], secret?: string): OAuthClientDto {
    return OAuthClientDto.from(client, this.clock.nowMs(), secret);
  }

  @Get()
  @RequirePermission('oauth-client:read')
  @ApiOkResponse({ type: OAuthClientPageDto })
  @ApiOperation({
    operationId: 'listOAuthClients',
    summary: 'List the registered OAuth clients (never their secrets): a page, searched, sorted',
  })
  @ApiProblems(400)
  async list(@Query() query: OAuthClientsQueryDto): Promise<OAuthClientPageDto> {
    const page = await this.clients.page(query);
    return { ...page, items: page.items.map((client) => this.view(client)) };
  }

  @Get(':id')
  @RequirePermission('oauth-client:read')
  @ApiParam(CLIENT_ID_PARAM)
  @ApiOkResponse({ type: OAuthClientDto })
  @ApiOperation({ operationId: 'getOAuthClient', summary: 'Get one registered OAuth client' })
  @ApiProblems(NOT_FOUND)
  async get(@Param('id') clientId: string): Promise<OAuthClientDto> {
    return this.view(await this.clients.get(clientId));
  }

  @Post()
  @RequirePermission('oauth-client:write')
  @ApiCreatedResponse({ type: OAuthClientDto, description: 'With `client_secret` for a confidential client' })
  @ApiOperation({
    operationId: 'createOAuthClient',
    summary: 'Register an application; the answer holds the secret of a confidential one, shown only this once',
    description:
      '`scopes` is its ceiling: each a permission of `GET /api/permissions` that the caller holds (`*` only by a ' +
      'holder of `*`). A name that could pass for the administration interface is a 400.',
  })
  @ApiProblems(400, [403, 'The token lacks oauth-client:write, or a permission of `scopes` (privilege-escalation)'])
  async create(
    @Body() body: CreateOAuthClientDto,
    @CurrentPrincipal() actor: Principal,
    @Req() request: Request,
  ): Promise<OAuthClientDto> {
    const { client, secret } = await this.clients.create(body, actor);
    await this.trail.record({
      ...originOf(request),
      actor: actor.subject,
      clientId: actor.clientId,
      action: 'oauth-client.create',
      targetType: 'oauth-client',
      targetId: client.clientId,
      details: { public: client.public, scopes: client.scopes },
    });
    return this.view(client, secret);
  }

  @Patch(':id')
  @RequirePermission('oauth-client:write')
  @Audited('oauth-client.update', 'oauth-client')
  @ApiParam(CLIENT_ID_PARAM)
  @ApiOkResponse({ type: OAuthClientDto })
  @ApiOperation({
    operationId: 'updateOAuthClient',
    summary: 'Change the name, the redirect URIs or the scopes of a client',
    description: 'Takes every permission of its ceiling (`scopes`), and of the new one.',
  })
  @ApiProblems(400, ESCALATION, NOT_FOUND)
  async update(
    @Param('id') clientId: string,
    @Body() body: UpdateOAuthClientDto,
    @CurrentPrincipal() actor: Principal,
  ): Promise<OAuthClientDto> {
    return this.view(await this.clients.update(clientId, body, actor));
  }

  @Post(':id/secret')
  @HttpCode(200)
  @RequirePermission('oauth-client:write')
  @Audited('oauth-client.rotate-secret', 'oauth-client')
  @ApiParam(CLIENT_ID_PARAM)
  @ApiOkResponse({ type: OAuthClientDto, description: 'With the new `client_secret`' })
  @ApiOperation({
    operationId: 'rotateOAuthClientSecret',
    summary: 'Issue a new secret to a confidential client, shown only this once',
    description:
      'The previous secret keeps working for SECRET_ROTATION_GRACE (a day by default) (`previous_secret_expires_at`), so ' +
      'concurrent rotations each hand out a working secret. Takes every permission of the client’s ceiling. ' +
      'Sign-ins made at the client stay: its access tokens run until they expire, and its refresh tokens are ' +
      'refreshed with the new secret.',
  })
  @ApiProblems(ESCALATION, NOT_FOUND, [409, 'A public client has no secret'])
  async rotate(@Param('id') clientId: string, @CurrentPrincipal() actor: Principal): Promise<OAuthClientDto> {
    const { client, secret } = await this.clients.rotateSecret(clientId, actor);
    return this.view(client, secret);
  }

  @Delete(':id/previous-secret')
  @RequirePermission('oauth-client:write')
  @Audited('oauth-client.expire-previous-secret', 'oauth-client')
  @ApiParam(CLIENT_ID_PARAM)
  @ApiOkResponse({ type: OAuthClientDto })
  @ApiOperation({
    operationId: 'expirePreviousOAuthClientSecret',
    summary: "End a rotation's grace period now: the previous secret stops working at once",
  })
  @ApiProblems(ESCALATION, NOT_FOUND)
  async expirePreviousSecret(
    @Param('id') clientId: string,
    @CurrentPrincipal() actor: Principal,
  ): Promise<OAuthClientDto> {
    return this.view(await this.clients.expirePreviousSecret(clientId, actor));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('oauth-client:write')
  @Audited('oauth-client.delete', 'oauth-client')
  @ApiParam(CLIENT_ID_PARAM)
  @ApiNoContentResponse({
    description:
      'Deleted, with its authorization codes; every sign-in made at it is revoked: its refresh tokens fail and its ' +
      'access tokens are refused at once',
  })
  @ApiOperation({
    operationId: 'deleteOAuthClient',
    summary: 'Delete a registered OAuth client, signing out everyone signed in through it',
    description: 'Takes every permission of its ceiling (`scopes`); the consents people gave it are forgotten.',
  })
  @ApiProblems(ESCALATION, NOT_FOUND)
  async remove(@Param('id') clientId: string, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.clients.remove(clientId, actor);
  }
}
