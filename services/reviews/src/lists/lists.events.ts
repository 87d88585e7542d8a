import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEventBatch } from '@app/bus';
import { ListsService } from './lists.service';

@Controller()
export class ListsEvents {
  constructor(private readonly lists: ListsService) {}

  /** Every new member starts with a "Want to try" list; members from before get theirs on first use. */
  @OnEventBatch('user.registered')
  async onRegistered(@Payload() events: EventEnvelope<'user.registered'>[]): Promise<void> {
    await this.lists.ensureDefaults(events.map((e) => e.payload.userId));
  }
}
