import { Module } from '@nestjs/common';
import { JoinRequestsModule } from '../join-requests/join-requests.module';
import { MembersModule } from '../members/members.module';
import { WeekActivityModule } from '../read-models/week-activity.module';
import { SquadPresenter } from './squad-presenter.service';
import { SquadsController } from './squads.controller';
import { SquadsService } from './squads.service';

@Module({
  imports: [MembersModule, JoinRequestsModule, WeekActivityModule],
  controllers: [SquadsController],
  providers: [SquadsService, SquadPresenter],
})
export class SquadsModule {}
