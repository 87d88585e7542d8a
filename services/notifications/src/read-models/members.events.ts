import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { MembersService } from './members.service';

/**
 * Keeps the member read model's preferences in step with social (settings); the card, email and
 * language of the same rows come from the shared UserCardsModule's handlers (`registrationFields`).
 */
@Controller()
export class MembersEvents {
  constructor(private readonly members: MembersService) {}

  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    await this.members.settingsUpdated(event.payload);
  }
}
