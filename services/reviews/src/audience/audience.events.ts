import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { BlocksReadModel } from '@app/platform';
import { AudienceService } from './audience.service';
import { ViewerContextService } from './viewer-context.service';

/**
 * Keeps the privacy read model in step with the social service (block rows: the shared
 * BlocksModule), and stamps both members' contexts after a block or unblock. The row is written
 * here too, idempotently, so the stamp moves after it whichever handler runs first.
 */
@Controller()
export class AudienceEvents {
  constructor(
    private readonly audience: AudienceService,
    private readonly blocks: BlocksReadModel,
    private readonly contexts: ViewerContextService,
  ) {}

  @OnEvent('block.created')
  async onBlockCreated(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    await this.blocked(event.payload.blockerId, event.payload.blockedId, true, event.occurredAt);
  }

  @OnEvent('block.removed')
  async onBlockRemoved(@Payload() event: EventEnvelope<'block.removed'>): Promise<void> {
    await this.blocked(event.payload.blockerId, event.payload.blockedId, false, event.occurredAt);
  }

  private async blocked(blockerId: string, blockedId: string, blocked: boolean, at: string): Promise<void> {
    await this.blocks.setBlock(blockerId, blockedId, blocked, at);
    await this.contexts.touch(blockerId);
    await this.contexts.touch(blockedId);
  }

  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    await this.audience.setPrivacy(event.payload.userId, event.payload.privacy_profile, event.occurredAt);
  }
}
