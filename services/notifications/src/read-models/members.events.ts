import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { MembersService } from './members.service';

/**
 * Keeps the member read model's own fields in step with auth (registration) and social (settings);
 * the card fields of the same rows come from the shared UserCardsModule's handlers.
 */
@Controller()
export class MembersEvents {
  constructor(private readonly members: MembersService) {}

  @OnEventBatch('user.registered')
  async onRegistered(@Payload() events: EventEnvelope<'user.registered'>[]): Promise<void> {
    await this.members.registeredAll(events.map((e) => e.payload));
  }

  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    await this.members.settingsUpdated(event.payload);
  }
}
