import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { ErasureService } from './erasure.service';

@Controller()
export class ErasureEvents {
  constructor(private readonly erasure: ErasureService) {}

  /** The member deleted their account: their profile, follows both ways, blocks, mutes and stats go. */
  @OnEvent('user.deleted')
  async onUserDeleted(@Payload() event: EventEnvelope<'user.deleted'>): Promise<void> {
    await this.erasure.erase(event.payload.userId);
  }
}
