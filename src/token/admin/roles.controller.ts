import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '../../audit/index.js';
import { RequirePermission } from '../../common/auth/auth.decorators.js';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator.js';
import type { Principal } from '../../common/auth/principal.js';
import { ParseIdPipe } from '../../common/pipes/parse-id.pipe.js';
import { CreateRoleDto, UpdateRoleDto } from './admin.dto.js';
import { RoleDto } from './admin-views.dto.js';
import { RolesService } from './roles.service.js';

@ApiTags('roles')
@Controller('api/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @RequirePermission('role:read')
  @ApiOkResponse({ type: [RoleDto] })
  async list(): Promise<RoleDto[]> {
    return (await this.roles.list()).map((role) => RoleDto.from(role));
  }

  @Get(':id')
  @RequirePermission('role:read')
  @ApiOkResponse({ type: RoleDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<RoleDto> {
    return RoleDto.from(await this.roles.get(id));
  }

  @Post()
  @RequirePermission('role:write')
  @Audited('role.create', 'role')
  @ApiOperation({ summary: 'Create a role: a name and its permissions' })
  @ApiCreatedResponse({ type: RoleDto })
  async create(@Body() body: CreateRoleDto, @CurrentPrincipal() actor: Principal): Promise<RoleDto> {
    return RoleDto.from(await this.roles.create(body, actor));
  }

  @Patch(':id')
  @RequirePermission('role:write')
  @Audited('role.update', 'role')
  @ApiOkResponse({ type: RoleDto })
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
  @ApiOperation({ summary: 'Delete a role (409 while a user or an integration has it)' })
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.roles.remove(id, actor);
  }
}
