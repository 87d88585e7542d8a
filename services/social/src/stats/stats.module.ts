import { Module } from '@nestjs/common';
import { RelationsModule } from '../relations/relations.module';
import { ActivityService } from './activity.service';
import { StatsController } from './stats.controller';
import { StatsEvents } from './stats.events';

@Module({
  imports: [RelationsModule],
  controllers: [StatsController, StatsEvents],
  providers: [ActivityService],
  exports: [ActivityService],
})
export class StatsModule {}
