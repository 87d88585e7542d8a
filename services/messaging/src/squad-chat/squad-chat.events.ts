import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { SquadChatService } from './squad-chat.service';

/**
 * Squad membership drives the squad chat's membership ($addToSet / $pull: redelivery is
 * harmless) and the squad's name its name (the newest wins: a late or replayed event is ignored).
 */
@Controller()
export class SquadChatEvents {
  constructor(private readonly squadChat: SquadChatService) {}

  @OnEvent('squad.created')
  async onCreated(@Payload() event: EventEnvelope<'squad.created'>): Promise<void> {
    await this.squadChat.memberJoined(event.payload.squadId, event.payload.name, event.payload.creatorId, event.occurredAt);
  }

  @OnEvent('squad.updated')
  async onUpdated(@Payload() event: EventEnvelope<'squad.updated'>): Promise<void> {
    await this.squadChat.squadRenamed(event.payload.squadId, event.payload.name, event.payload.updated_at);
  }

  @OnEvent('squad.member_joined')
  async onJoined(@Payload() event: EventEnvelope<'squad.member_joined'>): Promise<void> {
    await this.squadChat.memberJoined(event.payload.squadId, event.payload.squadName, event.payload.userId, event.occurredAt);
  }

  @OnEvent('squad.member_left')
  async onLeft(@Payload() event: EventEnvelope<'squad.member_left'>): Promise<void> {
    await this.squadChat.memberLeft(event.payload.squadId, event.payload.userId);
  }

  @OnEvent('squad.deleted')
  async onDeleted(@Payload() event: EventEnvelope<'squad.deleted'>): Promise<void> {
    await this.squadChat.squadDeleted(event.payload.squadId);
  }
}
