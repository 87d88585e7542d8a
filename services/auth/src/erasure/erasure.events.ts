import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { ErasureService } from './erasure.service';

@Controller()
export class ErasureEvents {
  constructor(private readonly erasure: ErasureService) {}

  /** Reset links, login challenges, two-factor secrets and queued mails go with the account. */
  @OnEvent('user.deleted')
  async onUserDeleted(@Payload() event: EventEnvelope<'user.deleted'>): Promise<void> {
    await this.erasure.eraseAccountRows(event.payload.userId);
  }
}
