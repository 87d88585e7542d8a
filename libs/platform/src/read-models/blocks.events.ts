import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { BlocksReadModel } from './blocks.service';

/** Keeps the block read model in step with the social service. */
@Controller()
export class BlocksEvents {
  constructor(private readonly blocks: BlocksReadModel) {}

  @OnEvent('block.created')
  async onCreated(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    await this.blocks.setBlock(event.payload.blockerId, event.payload.blockedId, true, event.occurredAt);
  }

  @OnEvent('block.removed')
  async onRemoved(@Payload() event: EventEnvelope<'block.removed'>): Promise<void> {
    await this.blocks.setBlock(event.payload.blockerId, event.payload.blockedId, false, event.occurredAt);
  }

  @OnEvent('user.deleted')
  async onUserDeleted(@Payload() event: EventEnvelope<'user.deleted'>): Promise<void> {
    await this.blocks.forgetMember(event.payload.userId);
  }
}
