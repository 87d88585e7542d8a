import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { MemberDirectory } from './member-directory.service';

/** Keeps the user-card and block read models in step with the social service (upserts: idempotent). */
@Controller()
export class MemberDirectoryEvents {
  constructor(private readonly directory: MemberDirectory) {}

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
  async onBlockCreated(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    await this.directory.setBlock(event.payload.blockerId, event.payload.blockedId, true);
  }

  @OnEvent('block.removed')
  async onBlockRemoved(@Payload() event: EventEnvelope<'block.removed'>): Promise<void> {
    await this.directory.setBlock(event.payload.blockerId, event.payload.blockedId, false);
  }
}
