import { Global, Module } from '@nestjs/common';
import { BlocksModule } from '@app/platform';
import { AudienceEvents } from './audience.events';
import { AudienceService } from './audience.service';
import { FollowGraphService } from './follow-graph.service';

/** The follow graph, privacy and (shared) blocks read models, and the visibility rule built on them. */
@Global()
@Module({
  imports: [BlocksModule],
  controllers: [AudienceEvents],
  providers: [AudienceService, FollowGraphService],
  exports: [AudienceService, FollowGraphService],
})
export class AudienceModule {}
