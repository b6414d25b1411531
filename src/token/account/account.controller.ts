import { Body, Controller, Get, HttpCode, Put, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { originOf } from '../../audit/index.js';
import { Authenticated, CurrentPrincipal, ApiProblems } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { ChangeOwnPasswordDto, MeDto } from './account.dto.js';
import { CurrentAccountService } from './current-account.service.js';
import { PasswordChangeService } from './password-change.service.js';

/** The caller's own account: any valid token may read it; a user may change their own password. */
@ApiTags('account')
@Controller('api/me')
export class AccountController {
  constructor(
    private readonly accounts: CurrentAccountService,
    private readonly passwords: PasswordChangeService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOkResponse({ type: MeDto })
  @ApiOperation({
    operationId: 'getMe',
    summary: 'Who the caller is: the user or integration of the token, its role, and what the token grants',
  })
  @ApiProblems(400)
  async get(@CurrentPrincipal() principal: Principal): Promise<MeDto> {
    return MeDto.from(await this.accounts.of(principal), principal.scopes);
  }

  @Put('password')
  @HttpCode(204)
  @Authenticated()
  @ApiNoContentResponse({ description: "Changed; the user's other sign-ins are ended, this one stays" })
  @ApiOperation({
    operationId: 'changeOwnPassword',
    summary: 'Change the signed-in user’s own password, proving the current one',
    description:
      'For users only: an integration, which has no password, gets 403 `/problems/not-a-user`. Ends every other ' +
      'sign-in of the user (its refresh and access tokens) at once; the sign-in whose token made the change stays. ' +
      'A wrong current password is 400 `/problems/wrong-password` and counts against the sign-in failure limits.',
  })
  @ApiProblems(
    [400, 'Invalid body, a new password that is too short, or a wrong current password'],
    [429, 'Too many wrong passwords for this user; see Retry-After'],
    503,
  )
  async changePassword(
    @Body() body: ChangeOwnPasswordDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<void> {
    const change = { currentPassword: body.current_password, newPassword: body.new_password };
    await this.passwords.change(principal, change, originOf(request));
  }
}
