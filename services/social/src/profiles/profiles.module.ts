import { Module } from '@nestjs/common';
import { RelationsModule } from '../relations/relations.module';
import { StatsModule } from '../stats/stats.module';
import { ProfilesController } from './profiles.controller';
import { ProfilesEvents } from './profiles.events';
import { ProfilesService } from './profiles.service';

@Module({
  imports: [RelationsModule, StatsModule],
  controllers: [ProfilesController, ProfilesEvents],
  providers: [ProfilesService],
  exports: [ProfilesService],
})
export class ProfilesModule {}
