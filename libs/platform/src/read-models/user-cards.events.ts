import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { cardOf, UserCardsReadModel } from './user-cards.service';

/** Keeps the user cards in step with registrations, profile edits and deletions (idempotent). */
@Controller()
export class UserCardsEvents {
  constructor(private readonly cards: UserCardsReadModel) {}

  @OnEventBatch('user.registered')
  async onRegistered(@Payload() events: EventEnvelope<'user.registered'>[]): Promise<void> {
    await this.cards.registered(events.map((e) => ({ payload: e.payload, at: e.occurredAt })));
  }

  @OnEvent('user.updated')
  async onUpdated(@Payload() event: EventEnvelope<'user.updated'>): Promise<void> {
    await this.cards.upsertCard(cardOf(event.payload), event.occurredAt);
  }

  @OnEvent('user.deleted')
  async onDeleted(@Payload() event: EventEnvelope<'user.deleted'>): Promise<void> {
    await this.cards.tombstone(event.payload.userId);
  }
}
