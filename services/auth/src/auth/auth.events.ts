import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { AuthService } from './auth.service';

/** Profile renames happen in the social service; the token's username follows them. */
@Controller()
export class AuthEvents {
  constructor(private readonly auth: AuthService) {}

  @OnEvent('user.updated')
  async onUserUpdated(@Payload() event: EventEnvelope<'user.updated'>): Promise<void> {
    const p = event.payload;
    await this.auth
      .applyProfileUpdate(p.userId, { username: p.username, display_name: p.display_name, avatar: p.profile_image_url })
      .catch(() => undefined);
  }

  /** The language chosen in Settings (social) is the one the account's emails and export carry. */
  @OnEvent('user.settings_updated')
  async onSettingsUpdated(@Payload() event: EventEnvelope<'user.settings_updated'>): Promise<void> {
    const { userId, language } = event.payload;
    if (language) await this.auth.applyLanguage(userId, language);
  }

  @OnEvent('moderation.role_changed')
  async onRoleChanged(@Payload() event: EventEnvelope<'moderation.role_changed'>): Promise<void> {
    await this.auth.applyRole(event.payload.userId, event.payload.role);
  }

  @OnEvent('moderation.member_suspended')
  async onMemberSuspended(@Payload() event: EventEnvelope<'moderation.member_suspended'>): Promise<void> {
    const p = event.payload;
    await this.auth.applySuspension(p.userId, p.until, p.reason);
  }
}
