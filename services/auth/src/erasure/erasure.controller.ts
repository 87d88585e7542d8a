import { Body, Controller, Delete, HttpCode } from '@nestjs/common';
import { DeleteAccountDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ErasureService } from './erasure.service';

/**
 * DELETE /api/users/me: under social's /users prefix, but the password lives here, so the
 * gateway routes this one method and path to auth (gateway/src/proxy/routes.ts).
 */
@Controller('users')
export class ErasureController {
  constructor(private readonly erasure: ErasureService) {}

  @Delete('me')
  @HttpCode(200)
  async deleteAccount(@CurrentUser() user: AuthenticatedUser, @Body() dto: DeleteAccountDto) {
    await this.erasure.deleteAccount(user, dto);
    return Reply.message('Account deleted', null);
  }
}
