import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ProfileQueryDto, UpdateProfileDto, UsernameParamDto, UserProfile } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ProfilesService } from './profiles.service';

@Controller('users')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  /** The cache busters in the query are validated by the DTO and otherwise ignored. */
  @Get('profile/:username')
  profile(
    @CurrentUser() user: AuthenticatedUser,
    @Param() params: UsernameParamDto,
    @Query() _query: ProfileQueryDto,
  ): Promise<UserProfile> {
    return this.profiles.view(user.id, params.username);
  }

  @Put('profile')
  async update(@CurrentUser() user: AuthenticatedUser, @Body() dto: UpdateProfileDto) {
    return Reply.message('Profile updated successfully', await this.profiles.update(user.id, dto));
  }
}
