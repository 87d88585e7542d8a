import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ChangePasswordDto, LoginDto, PageQueryDto, pageWindow, RegisterDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Public, Reply, RequireRole } from '@app/platform';
import { TwoFactorService } from '../account/two-factor.service';
import { AuthService } from './auth.service';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  @Public()
  @Post('register')
  async register(@Body() dto: RegisterDto) {
    return Reply.message('Registration successful', await this.auth.register(dto));
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  async login(@Body() dto: LoginDto) {
    const user = await this.auth.authenticate(dto);
    // With two-factor sign-in on, no token yet: a challenge for POST /auth/2fa/verify.
    const challenge = await this.twoFactor.challengeFor(user);
    if (challenge) return Reply.message('Enter the code from your authenticator app', challenge);
    return Reply.message('Login successful', this.auth.issue(user));
  }

  @Get('me')
  me(@CurrentUser() user: AuthenticatedUser) {
    return this.auth.me(user);
  }

  @Get('session')
  session(@CurrentUser() user: AuthenticatedUser) {
    return this.auth.session(user);
  }

  @Post('logout')
  @HttpCode(200)
  async logout(@CurrentUser() user: AuthenticatedUser) {
    await this.auth.logout(user);
    return Reply.message('Logged out', null);
  }

  @Put('password')
  async changePassword(@CurrentUser() user: AuthenticatedUser, @Body() dto: ChangePasswordDto) {
    return Reply.message('Password changed', await this.auth.changePassword(user, dto));
  }

  /**
   * Every account, for moderators and admins only (issue 45 §8): members find people through
   * social's suggestions and search, which leave out blocks and suspended accounts.
   */
  @Get('users')
  @RequireRole('moderator')
  async users(@Query() query: PageQueryDto) {
    const { page, limit, skip } = pageWindow(query, 50);
    const { items, total } = await this.auth.list(skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
