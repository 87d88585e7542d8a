import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEventBatch } from '@app/bus';
import { ProfilesService } from './profiles.service';

@Controller()
export class ProfilesEvents {
  constructor(private readonly profiles: ProfilesService) {}

  /** Every member gets a profile with default settings when they register. */
  @OnEventBatch('user.registered')
  async onUsersRegistered(@Payload() events: EventEnvelope<'user.registered'>[]): Promise<void> {
    await this.profiles.createManyFromRegistration(events.map((e) => e.payload));
  }
}
