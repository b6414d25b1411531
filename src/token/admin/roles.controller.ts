import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../common/auth/auth.decorators.js';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator.js';
import type { Principal } from '../../common/auth/principal.js';
import { ParseIdPipe } from '../../common/pipes/parse-id.pipe.js';
import { CreateRoleDto, UpdateRoleDto } from './admin.dto.js';
import { roleView } from './admin-views.js';
import { RolesService } from './roles.service.js';

@ApiTags('roles')
@Controller('api/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @RequirePermission('role:read')
  async list() {
    return (await this.roles.list()).map(roleView);
  }

  @Get(':id')
  @RequirePermission('role:read')
  async get(@Param('id', ParseIdPipe) id: number) {
    return roleView(await this.roles.get(id));
  }

  @Post()
  @RequirePermission('role:write')
  @ApiOperation({ summary: 'Create a role: a name and its permissions' })
  async create(@Body() body: CreateRoleDto, @CurrentPrincipal() actor: Principal) {
    return roleView(await this.roles.create(body, actor));
  }

  @Patch(':id')
  @RequirePermission('role:write')
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateRoleDto,
    @CurrentPrincipal() actor: Principal,
  ) {
    return roleView(await this.roles.update(id, body, actor));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('role:write')
  @ApiOperation({ summary: 'Delete a role (409 while a user or an integration has it)' })
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.roles.remove(id, actor);
  }
}
