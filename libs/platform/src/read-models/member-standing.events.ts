import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { MemberStanding } from './member-standing.service';

/** Keeps `member_standing` (and this replica's memory) from auth's events. */
@Controller()
export class MemberStandingEvents {
  constructor(private readonly standing: MemberStanding) {}

  @OnEvent('user.deleted')
  async onDeleted(@Payload() event: EventEnvelope<'user.deleted'>): Promise<void> {
    await this.standing.record(event);
  }
}
