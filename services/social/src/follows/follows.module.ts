import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { RelationsModule } from '../relations/relations.module';
import { FollowRequestsController } from './follow-requests.controller';
import { FollowsController } from './follows.controller';
import { FollowsService } from './follows.service';

@Module({
  imports: [ProfilesModule, RelationsModule],
  controllers: [FollowRequestsController, FollowsController],
  providers: [FollowsService],
  exports: [FollowsService],
})
export class FollowsModule {}
