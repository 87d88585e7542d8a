import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { MembersService } from './members.service';

/** Keeps the member read model in step with auth (registration) and social (profile, settings). */
@Controller()
export class MembersEvents {
  constructor(private readonly members: MembersService) {}

  @OnEvent('user.registered')
  async onRegistered(@Payload() event: EventEnvelope<'user.registered'>): Promise<void> {
    await this.members.registered(event.payload);
  }

  @OnEvent('user.updated')
  async onUpdated(@Payload() event: EventEnvelope<'user.updated'>): Promise<void> {
    await this.members.updated(event.payload);
  }

  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    await this.members.settingsUpdated(event.payload);
  }
}
