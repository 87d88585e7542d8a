import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { MemberStanding } from './member-standing.service';

/** Keeps `member_standing` (and this replica's memory) from auth's events. */
@Controller()
export class MemberStandingEvents {
  constructor(private readonly standing: MemberStanding) {}

  @OnEvent('user.deleted')
  async onDeleted(@Payload() event: EventEnvelope<'user.deleted'>): Promise<void> {
    await this.standing.record(event);
  }

  @OnEvent('auth.sessions_revoked')
  async onSessionsRevoked(@Payload() event: EventEnvelope<'auth.sessions_revoked'>): Promise<void> {
    await this.standing.record(event);
  }

  @OnEvent('moderation.role_changed')
  async onRoleChanged(@Payload() event: EventEnvelope<'moderation.role_changed'>): Promise<void> {
    await this.standing.record(event);
  }

  @OnEvent('moderation.member_suspended')
  async onSuspended(@Payload() event: EventEnvelope<'moderation.member_suspended'>): Promise<void> {
    await this.standing.record(event);
  }

  /** A run, as every service's handlers of user.registered take (a registration nearly always says nothing here). */
  @OnEventBatch('user.registered')
  async onRegistered(@Payload() events: EventEnvelope<'user.registered'>[]): Promise<void> {
    for (const event of events) await this.standing.record(event);
  }
}
