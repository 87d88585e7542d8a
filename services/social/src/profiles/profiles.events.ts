import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { ProfilesService } from './profiles.service';

@Controller()
export class ProfilesEvents {
  constructor(private readonly profiles: ProfilesService) {}

  /** Every member gets a profile with default settings when they register. */
  @OnEvent('user.registered')
  async onUserRegistered(@Payload() event: EventEnvelope<'user.registered'>): Promise<void> {
    await this.profiles.createFromRegistration(event.payload);
  }
}
