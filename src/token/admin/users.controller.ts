import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../common/auth/auth.decorators.js';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator.js';
import type { Principal } from '../../common/auth/principal.js';
import { ParseIdPipe } from '../../common/pipes/parse-id.pipe.js';
import type { User } from '../entities/user.entity.js';
import { CreateUserDto, UpdateUserDto } from './admin.dto.js';
import { userView } from './admin-views.js';
import { RolesService } from './roles.service.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('api/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly roles: RolesService,
  ) {}

  @Get()
  @RequirePermission('user:read')
  async list() {
    const [users, names] = await Promise.all([this.users.list(), this.roles.names()]);
    return users.map((user) => userView(user, names.get(user.roleId) ?? ''));
  }

  @Get(':id')
  @RequirePermission('user:read')
  async get(@Param('id', ParseIdPipe) id: number) {
    return this.view(await this.users.get(id));
  }

  @Post()
  @RequirePermission('user:write')
  @ApiOperation({ summary: 'Create a user of the administration interface' })
  async create(@Body() body: CreateUserDto, @CurrentPrincipal() actor: Principal) {
    return this.view(await this.users.create(body, actor));
  }

  @Patch(':id')
  @RequirePermission('user:write')
  @ApiOperation({ summary: "Change a user's role or password (a new password ends its tokens at once)" })
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateUserDto,
    @CurrentPrincipal() actor: Principal,
  ) {
    return this.view(await this.users.update(id, body, actor));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('user:write')
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.users.remove(id, actor);
  }

  private async view(user: User) {
    return userView(user, (await this.roles.names()).get(user.roleId) ?? '');
  }
}
