import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { PasswordResetConfirmDto, PasswordResetRequestDto, TwoFactorDisableDto, TwoFactorEnableDto, TwoFactorVerifyDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Public, Reply } from '@app/platform';
import { AuthService, toAuthUser } from '../auth/auth.service';
import { PasswordResetService, RESET_TTL_MINUTES } from './password-reset.service';
import { TwoFactorService } from './two-factor.service';

/** Password reset by email and two-factor sign-in (issue 20). */
@Controller('auth')
export class AccountController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  @Public()
  @Post('password-reset')
  @HttpCode(202)
  requestReset(@Body() dto: PasswordResetRequestDto) {
    this.resets.request(dto);
    return Reply.message(`If an account uses this email, a reset link is on its way; it works for ${RESET_TTL_MINUTES} minutes`, null);
  }

  @Public()
  @Post('password-reset/confirm')
  @HttpCode(200)
  async confirmReset(@Body() dto: PasswordResetConfirmDto) {
    await this.resets.confirm(dto);
    return Reply.message('Password has been reset; please sign in', null);
  }

  /** Auth's part of GET /api/users/me/export: the account, never its hash or two-factor secrets. */
  @Get('me/export')
  async export(@CurrentUser() member: AuthenticatedUser) {
    const user = await this.auth.currentSession(member);
    return { account: toAuthUser(user), two_factor: await this.twoFactor.status(member) };
  }

  @Get('2fa')
  status(@CurrentUser() member: AuthenticatedUser) {
    return this.twoFactor.status(member);
  }

  @Post('2fa/setup')
  @HttpCode(200)
  setup(@CurrentUser() member: AuthenticatedUser) {
    return this.twoFactor.setup(member);
  }

  @Post('2fa/enable')
  @HttpCode(200)
  async enable(@CurrentUser() member: AuthenticatedUser, @Body() dto: TwoFactorEnableDto) {
    return Reply.message('Two-factor sign-in is on', await this.twoFactor.enable(member, dto.code));
  }

  @Post('2fa/disable')
  @HttpCode(200)
  async disable(@CurrentUser() member: AuthenticatedUser, @Body() dto: TwoFactorDisableDto) {
    await this.twoFactor.disable(member, dto);
    return Reply.message('Two-factor sign-in is off', null);
  }

  @Public()
  @Post('2fa/verify')
  @HttpCode(200)
  async verify(@Body() dto: TwoFactorVerifyDto) {
    return Reply.message('Login successful', this.auth.issue(await this.twoFactor.verify(dto)));
  }
}
