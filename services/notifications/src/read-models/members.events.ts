import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { MembersService } from './members.service';

/**
 * Keeps the member read model's own fields in step with auth (registration) and social (settings);
 * the card fields of the same rows come from the shared UserCardsModule's handlers.
 */
@Controller()
export class MembersEvents {
  constructor(private readonly members: MembersService) {}

  @OnEvent('user.registered')
  async onRegistered(@Payload() event: EventEnvelope<'user.registered'>): Promise<void> {
    await this.members.registered(event.payload);
  }

  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    await this.members.settingsUpdated(event.payload);
  }
}
