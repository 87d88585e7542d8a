import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ChangePasswordDto, LoginDto, PageQueryDto, pageWindow, RegisterDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Public, Reply } from '@app/platform';
import { AuthService } from './auth.service';

@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @Post('register')
  async register(@Body() dto: RegisterDto) {
    return Reply.message('Registration successful', await this.auth.register(dto));
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  async login(@Body() dto: LoginDto) {
    return Reply.message('Login successful', await this.auth.login(dto));
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

  @Get('users')
  async users(@Query() query: PageQueryDto) {
    const { page, limit, skip } = pageWindow(query, 50);
    const { items, total } = await this.auth.list(skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
