import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { SiteRolesReadModel } from './site-roles.service';

@Controller()
export class SiteRolesEvents {
  constructor(private readonly roles: SiteRolesReadModel) {}

  /** Only staff registrations say something here: nearly every run writes nothing. */
  @OnEventBatch('user.registered')
  async onRegistered(@Payload() events: EventEnvelope<'user.registered'>[]): Promise<void> {
    for (const { payload: p } of events) if (p.role && p.role !== 'member') await this.roles.set(p.userId, p.role);
  }

  @OnEvent('moderation.role_changed')
  async onRoleChanged(@Payload() event: EventEnvelope<'moderation.role_changed'>): Promise<void> {
    await this.roles.set(event.payload.userId, event.payload.role);
  }
}
