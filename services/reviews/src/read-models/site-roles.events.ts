import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { SiteRolesReadModel } from './site-roles.service';

@Controller()
export class SiteRolesEvents {
  constructor(private readonly roles: SiteRolesReadModel) {}

  @OnEvent('user.registered')
  async onRegistered(@Payload() event: EventEnvelope<'user.registered'>): Promise<void> {
    if (event.payload.role && event.payload.role !== 'member') await this.roles.set(event.payload.userId, event.payload.role);
  }

  @OnEvent('moderation.role_changed')
  async onRoleChanged(@Payload() event: EventEnvelope<'moderation.role_changed'>): Promise<void> {
    await this.roles.set(event.payload.userId, event.payload.role);
  }
}
