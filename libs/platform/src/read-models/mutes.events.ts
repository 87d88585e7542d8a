import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { MutesReadModel } from './mutes.service';

/** Keeps the mute read model in step with the social service. */
@Controller()
export class MutesEvents {
  constructor(private readonly mutes: MutesReadModel) {}

  @OnEvent('mute.created')
  async onCreated(@Payload() event: EventEnvelope<'mute.created'>): Promise<void> {
    await this.mutes.setMute(event.payload.muterId, event.payload.mutedId, true, event.occurredAt);
  }

  @OnEvent('mute.removed')
  async onRemoved(@Payload() event: EventEnvelope<'mute.removed'>): Promise<void> {
    await this.mutes.setMute(event.payload.muterId, event.payload.mutedId, false, event.occurredAt);
  }

  @OnEvent('user.deleted')
  async onUserDeleted(@Payload() event: EventEnvelope<'user.deleted'>): Promise<void> {
    await this.mutes.forgetMember(event.payload.userId);
  }
}
