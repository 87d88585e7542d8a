import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { DirectoryService } from './directory.service';

/** Keeps the card and block read models in step with the services that own them. */
@Controller()
export class DirectoryEvents {
  constructor(private readonly directory: DirectoryService) {}

  @OnEvent('user.registered')
  async onRegistered(@Payload() event: EventEnvelope<'user.registered'>): Promise<void> {
    const p = event.payload;
    await this.directory.upsertCard({
      id: p.userId,
      username: p.username,
      display_name: p.display_name,
      profile_image_url: p.profile_image_url,
    });
  }

  @OnEvent('user.updated')
  async onUpdated(@Payload() event: EventEnvelope<'user.updated'>): Promise<void> {
    const p = event.payload;
    await this.directory.upsertCard({
      id: p.userId,
      username: p.username,
      display_name: p.display_name,
      profile_image_url: p.profile_image_url,
    });
  }

  @OnEvent('block.created')
  async onBlocked(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    await this.directory.block(event.payload.blockerId, event.payload.blockedId);
  }

  @OnEvent('block.removed')
  async onUnblocked(@Payload() event: EventEnvelope<'block.removed'>): Promise<void> {
    await this.directory.unblock(event.payload.blockerId, event.payload.blockedId);
  }
}
