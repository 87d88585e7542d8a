import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ProfileQueryDto, UpdateProfileDto, UsernameParamDto, UserProfile } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, OpenToVisitors, Reply } from '@app/platform';
import { ProfilesService } from './profiles.service';

@Controller('users')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /**
   * Visitors read it too (issue 43 §3): the real counts, no relation; a private profile says so
   * with `can_view_content: false`. The cache busters in the query are validated by the DTO and otherwise ignored.
   */
  @OpenToVisitors()
  @Get('profile/:username')
  profile(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Param() params: UsernameParamDto,
    @Query() _query: ProfileQueryDto,
  ): Promise<UserProfile> {
    return this.profiles.view(user?.id ?? '', params.username);
  }

  @Put('profile')
  async update(@CurrentUser() user: AuthenticatedUser, @Body() dto: UpdateProfileDto) {
    return Reply.message('Profile updated successfully', await this.profiles.update(user.id, dto));
  }
}
