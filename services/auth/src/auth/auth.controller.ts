import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { LoginDto, PageQueryDto, pageWindow, RegisterDto } from '@app/contracts';
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
    return this.auth.me(user.id);
  }

  @Get('users')
  async users(@Query() query: PageQueryDto) {
    const { page, limit, skip } = pageWindow(query, 50);
    const { items, total } = await this.auth.list(skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
