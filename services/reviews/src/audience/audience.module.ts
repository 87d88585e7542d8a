import { Global, Module } from '@nestjs/common';
import { BlocksModule, MutesModule } from '@app/platform';
import { AudienceEvents } from './audience.events';
import { AudienceService } from './audience.service';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { ViewerContextService } from './viewer-context.service';

/**
 * The visibility rule over the follow graph (read-models/), privacy and (shared) blocks and mutes
 * read models; provides the follow graph and the viewer's context in memory.
 */
@Global()
@Module({
  imports: [BlocksModule, MutesModule],
  controllers: [AudienceEvents],
  providers: [AudienceService, FollowGraphService, ViewerContextService],
  exports: [AudienceService, FollowGraphService, ViewerContextService],
})
export class AudienceModule {}
