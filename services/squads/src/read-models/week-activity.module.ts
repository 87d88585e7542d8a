import { Module } from '@nestjs/common';
import { WeekActivityEvents } from './week-activity.events';
import { WeekActivityReadModel } from './week-activity.service';

@Module({
  controllers: [WeekActivityEvents],
  providers: [WeekActivityReadModel],
  exports: [WeekActivityReadModel],
})
export class WeekActivityModule {}
