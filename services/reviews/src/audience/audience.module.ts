import { Global, Module } from '@nestjs/common';
import { AudienceEvents } from './audience.events';
import { AudienceService } from './audience.service';
import { FollowGraphService } from './follow-graph.service';

/** The follow graph, privacy and blocks read models, and the visibility rule built on them. */
@Global()
@Module({
  controllers: [AudienceEvents],
  providers: [AudienceService, FollowGraphService],
  exports: [AudienceService, FollowGraphService],
})
export class AudienceModule {}
