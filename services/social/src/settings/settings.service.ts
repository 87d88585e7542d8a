import { Injectable } from '@nestjs/common';
import { DEFAULT_SETTINGS, UpdateSettingsDto, UserSettings } from '@app/contracts';
import { EventBus } from '@app/bus';
import { FollowsService } from '../follows/follows.service';
import { ProfilesService } from '../profiles/profiles.service';

@Injectable()
export class SettingsService {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly follows: FollowsService,
    private readonly bus: EventBus,
  ) {}

  async get(userId: string): Promise<UserSettings> {
    const profile = await this.profiles.require(userId);
    return { ...DEFAULT_SETTINGS, ...profile.settings };
  }

  /** A partial update; notifications and others learn the whole new set from `user.settings_updated`. */
  async update(userId: string, dto: UpdateSettingsDto): Promise<UserSettings> {
    const fields = Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined));
    const doc = await this.profiles.setSettings(userId, fields);
    const settings: UserSettings = { ...DEFAULT_SETTINGS, ...doc.settings };
    await this.bus.emit('user.settings_updated', { userId, ...settings }, { key: userId, actorId: userId });
    if (dto.privacy_profile === 'public') await this.follows.acceptAllPending(userId);
    return settings;
  }
}
