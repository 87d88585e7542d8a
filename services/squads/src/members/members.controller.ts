import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import { MemberParamsDto, SquadParamsDto, UpdateMemberRoleDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { MembersService, ONLY_ADMINS_MANAGE_MEMBERS } from './members.service';
import { RequireSquadRole } from './require-squad-role';

@Controller('squads/:id')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Post('leave')
  @HttpCode(200)
  async leave(@Param() params: SquadParamsDto, @CurrentUser() user: AuthenticatedUser) {
    await this.members.leave(params.id, user);
    return Reply.message('You have left the squad', null);
  }

  @RequireSquadRole(['admin'], ONLY_ADMINS_MANAGE_MEMBERS)
  @Put('members/:userId')
  async changeRole(
    @Param() params: MemberParamsDto,
    @Body() dto: UpdateMemberRoleDto,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    return Reply.message('Member role updated', await this.members.changeRole(params.id, user, params.userId, dto.role));
  }

  @Delete('members/:userId')
  async remove(@Param() params: MemberParamsDto, @CurrentUser() user: AuthenticatedUser) {
    await this.members.remove(params.id, user, params.userId);
    return Reply.message('Member removed from the squad', null);
  }
}
