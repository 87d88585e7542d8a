import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { UserCardsService } from './user-cards.service';

/** Keeps author cards in step with the members' profiles. */
@Controller()
export class UserCardsEvents {
  constructor(private readonly cards: UserCardsService) {}

  @OnEvent('user.registered')
  async onRegistered(@Payload() event: EventEnvelope<'user.registered'>): Promise<void> {
    const p = event.payload;
    await this.cards.upsert({ id: p.userId, username: p.username, display_name: p.display_name, profile_image_url: p.profile_image_url });
  }

  @OnEvent('user.updated')
  async onUpdated(@Payload() event: EventEnvelope<'user.updated'>): Promise<void> {
    const p = event.payload;
    await this.cards.upsert({ id: p.userId, username: p.username, display_name: p.display_name, profile_image_url: p.profile_image_url });
  }
}
