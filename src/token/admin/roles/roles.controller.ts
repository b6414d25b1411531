import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems, RequirePermission, CurrentPrincipal, ParseIdPipe } from '@file-fields/nest';
import { Audited } from '../../../audit/index.js';
import type { Page } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import { CreateRoleDto, UpdateRoleDto } from '../admin.dto.js';
import { RoleDto } from '../admin-views.dto.js';
import { RolePageDto, RolesQueryDto } from '../admin-lists.js';
import { RolesService } from './roles.service.js';

@ApiTags('roles')
@Controller('api/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @RequirePermission('role:read')
  @ApiOkResponse({ type: RolePageDto })
  @ApiOperation({ operationId: 'listRoles', summary: 'List the roles and their permissions: a page, searched, sorted' })
  @ApiProblems(400)
  async list(@Query() query: RolesQueryDto): Promise<Page<RoleDto>> {
    const page = await this.roles.page(query);
    return { ...page, items: page.items.map((role) => RoleDto.from(role)) };
  }

  @Get(':id')
  @RequirePermission('role:read')
  @ApiOkResponse({ type: RoleDto })
  @ApiOperation({ operationId: 'getRole', summary: 'Get one role' })
  @ApiProblems(400, [404, 'No such role'])
  async get(@Param('id', ParseIdPipe) id: number): Promise<RoleDto> {
    return RoleDto.from(await this.roles.get(id));
  }

  @Post()
  @RequirePermission('role:write')
  @Audited('role.create', 'role')
  @ApiCreatedResponse({ type: RoleDto })
  @ApiOperation({ operationId: 'createRole', summary: 'Create a role: a name and its permissions' })
  @ApiProblems(
    [400, 'Invalid body, or a permission that is not `<resource>:<read|write>` or `*`'],
    [409, 'The name is taken'],
  )
  async create(@Body() body: CreateRoleDto, @CurrentPrincipal() actor: Principal): Promise<RoleDto> {
    return RoleDto.from(await this.roles.create(body, actor));
  }

  @Patch(':id')
  @RequirePermission('role:write')
  @Audited('role.update', 'role')
  @ApiOkResponse({ type: RoleDto })
  @ApiOperation({
    operationId: 'updateRole',
    summary: 'Rename a role or replace its permissions (tokens of its holders narrow at once)',
  })
  @ApiProblems(400, [404, 'No such role'], [409, 'The name is taken, or the role is built in'])
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateRoleDto,
    @CurrentPrincipal() actor: Principal,
  ): Promise<RoleDto> {
    return RoleDto.from(await this.roles.update(id, body, actor));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('role:write')
  @Audited('role.delete', 'role')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiOperation({ operationId: 'deleteRole', summary: 'Delete a role (409 while a user or an integration has it)' })
  @ApiProblems(400, [404, 'No such role'], [409, 'A user or an integration has the role, or it is built in'])
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.roles.remove(id, actor);
  }
}
