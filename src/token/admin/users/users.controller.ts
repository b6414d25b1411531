import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems, RequirePermission, CurrentPrincipal, ParseIdPipe } from '@file-fields/nest';
import { Audited } from '../../../audit/index.js';
import type { Page } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import type { User } from '../../repositories/entities/user.entity.js';
import { CreateUserDto, UpdateUserDto } from '../admin.dto.js';
import { UserDto } from '../admin-views.dto.js';
import { UserPageDto, UsersQueryDto } from '../admin-lists.js';
import { RolesService } from '../roles/roles.service.js';
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
  @ApiOkResponse({ type: UserPageDto })
  @ApiOperation({
    operationId: 'listUsers',
    summary: 'List the users of the administration interface: a page, searched, sorted',
  })
  @ApiProblems(400)
  async list(@Query() query: UsersQueryDto): Promise<Page<UserDto>> {
    const page = await this.users.page(query);
    const names = await this.roles.names(page.items.map((user) => user.roleId));
    return { ...page, items: page.items.map((user) => UserDto.from(user, names.get(user.roleId) ?? '')) };
  }

  @Get(':id')
  @RequirePermission('user:read')
  @ApiOkResponse({ type: UserDto })
  @ApiOperation({ operationId: 'getUser', summary: 'Get one user' })
  @ApiProblems(400, [404, 'No such user'])
  async get(@Param('id', ParseIdPipe) id: number): Promise<UserDto> {
    return this.view(await this.users.get(id));
  }

  @Post()
  @RequirePermission('user:write')
  @Audited('user.create', 'user')
  @ApiCreatedResponse({ type: UserDto })
  @ApiOperation({ operationId: 'createUser', summary: 'Create a user of the administration interface' })
  @ApiProblems(
    [400, 'Invalid body, or a password that is too short'],
    [404, 'No such role'],
    [409, 'The username is taken'],
  )
  async create(@Body() body: CreateUserDto, @CurrentPrincipal() actor: Principal): Promise<UserDto> {
    return this.view(await this.users.create(body, actor));
  }

  @Patch(':id')
  @RequirePermission('user:write')
  @Audited('user.update', 'user')
  @ApiOkResponse({ type: UserDto })
  @ApiOperation({
    operationId: 'updateUser',
    summary: "Change a user's role or password (a new password ends its tokens at once)",
  })
  @ApiProblems(400, [404, 'No such user or role'], [409, 'It would leave no administrator'])
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateUserDto,
    @CurrentPrincipal() actor: Principal,
  ): Promise<UserDto> {
    return this.view(await this.users.update(id, body, actor));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('user:write')
  @Audited('user.delete', 'user')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiOperation({ operationId: 'deleteUser', summary: 'Delete a user; its tokens stop working at once' })
  @ApiProblems(400, [404, 'No such user'], [409, 'It is the last administrator'])
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.users.remove(id, actor);
  }

  private async view(user: User): Promise<UserDto> {
    return UserDto.from(user, (await this.roles.names([user.roleId])).get(user.roleId) ?? '');
  }
}
