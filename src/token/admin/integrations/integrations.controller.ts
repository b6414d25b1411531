import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems, RequirePermission, CurrentPrincipal, ParseIdPipe } from '@file-fields/nest';
import { Audited } from '../../../audit/index.js';
import type { Page } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import type { Integration } from '../../repositories/entities/integration.entity.js';
import { CreateIntegrationDto, UpdateIntegrationDto } from '../admin.dto.js';
import { IntegrationDto } from '../admin-views.dto.js';
import { IntegrationPageDto, IntegrationsQueryDto } from '../admin-lists.js';
import { IntegrationsService } from './integrations.service.js';
import { RolesService } from '../roles/roles.service.js';

/** Settings > system > integrations: the clients of the client credentials grant. */
@ApiTags('integrations')
@Controller('api/integrations')
export class IntegrationsController {
  constructor(
    private readonly integrations: IntegrationsService,
    private readonly roles: RolesService,
  ) {}

  @Get()
  @RequirePermission('integration:read')
  @ApiOkResponse({ type: IntegrationPageDto })
  @ApiOperation({
    operationId: 'listIntegrations',
    summary: 'List the integrations (never their secrets): a page, searched, sorted',
  })
  @ApiProblems(400)
  async list(@Query() query: IntegrationsQueryDto): Promise<Page<IntegrationDto>> {
    const page = await this.integrations.page(query);
    const names = await this.roles.names(page.items.map((integration) => integration.roleId));
    const view = (integration: Integration) =>
      IntegrationDto.from(
        integration,
        names.get(integration.roleId) ?? '',
        this.integrations.previousSecretActive(integration),
      );
    return { ...page, items: page.items.map(view) };
  }

  @Get(':id')
  @RequirePermission('integration:read')
  @ApiOkResponse({ type: IntegrationDto })
  @ApiOperation({ operationId: 'getIntegration', summary: 'Get one integration' })
  @ApiProblems(400, [404, 'No such integration'])
  async get(@Param('id', ParseIdPipe) id: number): Promise<IntegrationDto> {
    return this.view(await this.integrations.get(id));
  }

  @Post()
  @RequirePermission('integration:write')
  @Audited('integration.create', 'integration')
  @ApiCreatedResponse({ type: IntegrationDto, description: 'With `secret_access_key`' })
  @ApiOperation({
    operationId: 'createIntegration',
    summary: 'Create an integration; the answer holds its secret, shown only this once',
  })
  @ApiProblems(400, [404, 'No such role'])
  async create(@Body() body: CreateIntegrationDto, @CurrentPrincipal() actor: Principal): Promise<IntegrationDto> {
    const { integration, secret } = await this.integrations.create(body, actor);
    return this.view(integration, secret);
  }

  @Patch(':id')
  @RequirePermission('integration:write')
  @Audited('integration.update', 'integration')
  @ApiOkResponse({ type: IntegrationDto })
  @ApiOperation({
    operationId: 'updateIntegration',
    summary: 'Change label, role, active, expires_at or owner (inactive: its tokens stop working at once)',
  })
  @ApiProblems(400, [404, 'No such integration or role'])
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateIntegrationDto,
    @CurrentPrincipal() actor: Principal,
  ): Promise<IntegrationDto> {
    return this.view(await this.integrations.update(id, body, actor));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('integration:write')
  @Audited('integration.delete', 'integration')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiOperation({ operationId: 'deleteIntegration', summary: 'Delete an integration; its tokens stop working at once' })
  @ApiProblems(400, [404, 'No such integration'])
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.integrations.remove(id, actor);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequirePermission('integration:write')
  @Audited('integration.rotate-secret', 'integration')
  @ApiOkResponse({ type: IntegrationDto, description: 'With the new `secret_access_key`' })
  @ApiOperation({
    operationId: 'rotateIntegrationSecret',
    summary: 'Issue a new secret; the old one keeps working for SECRET_ROTATION_GRACE (a day by default)',
  })
  @ApiProblems(400, [404, 'No such integration'])
  async rotate(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<IntegrationDto> {
    const { integration, secret } = await this.integrations.rotateSecret(id, actor);
    return this.view(integration, secret);
  }

  @Delete(':id/previous-secret')
  @RequirePermission('integration:write')
  @Audited('integration.expire-previous-secret', 'integration')
  @ApiOkResponse({ type: IntegrationDto })
  @ApiOperation({
    operationId: 'expirePreviousIntegrationSecret',
    summary: "End a rotation's grace period now: the previous secret stops working at once",
  })
  @ApiProblems(400, [404, 'No such integration'])
  async expirePreviousSecret(
    @Param('id', ParseIdPipe) id: number,
    @CurrentPrincipal() actor: Principal,
  ): Promise<IntegrationDto> {
    return this.view(await this.integrations.expirePreviousSecret(id, actor));
  }

  private async view(integration: Integration, secret?: string): Promise<IntegrationDto> {
    const roleName = (await this.roles.names([integration.roleId])).get(integration.roleId) ?? '';
    return IntegrationDto.from(integration, roleName, this.integrations.previousSecretActive(integration), secret);
  }
}
