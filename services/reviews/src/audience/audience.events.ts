import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { AudienceService } from './audience.service';

/** Keeps the privacy and block read models in step with the social service. */
@Controller()
export class AudienceEvents {
  constructor(private readonly audience: AudienceService) {}

  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    await this.audience.setPrivacy(event.payload.userId, event.payload.privacy_profile, event.occurredAt);
  }

  @OnEvent('block.created')
  async onBlockCreated(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    await this.audience.addBlock(event.payload.blockerId, event.payload.blockedId);
  }

  @OnEvent('block.removed')
  async onBlockRemoved(@Payload() event: EventEnvelope<'block.removed'>): Promise<void> {
    await this.audience.removeBlock(event.payload.blockerId, event.payload.blockedId);
  }
}
