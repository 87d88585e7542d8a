import { Body, Controller, Get, Put } from '@nestjs/common';
import { UpdateSettingsDto, UserSettings } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { SettingsService } from './settings.service';

@Controller('users/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  get(@CurrentUser() user: AuthenticatedUser): Promise<UserSettings> {
    return this.settings.get(user.id);
  }

  @Put()
  async update(@CurrentUser() user: AuthenticatedUser, @Body() dto: UpdateSettingsDto) {
    return Reply.message('Settings updated successfully', await this.settings.update(user.id, dto));
  }
}
