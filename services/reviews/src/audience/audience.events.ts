import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { AudienceService } from './audience.service';

/** Keeps the privacy read model in step with the social service (blocks: the shared BlocksModule). */
@Controller()
export class AudienceEvents {
  constructor(private readonly audience: AudienceService) {}

  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    await this.audience.setPrivacy(event.payload.userId, event.payload.privacy_profile, event.occurredAt);
  }
}
