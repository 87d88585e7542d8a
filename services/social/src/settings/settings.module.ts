import { Module } from '@nestjs/common';
import { FollowsModule } from '../follows/follows.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

@Module({
  imports: [ProfilesModule, FollowsModule],
  controllers: [SettingsController],
  providers: [SettingsService],
})
export class SettingsModule {}
