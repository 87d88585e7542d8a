import { Injectable } from '@nestjs/common';
import { DEFAULT_SETTINGS, UpdateSettingsDto, UserSettings } from '@app/contracts';
import { EventBus } from '@app/bus';
import { FollowsService } from '../follows/follows.service';
import { profilesCollection } from '../profiles/profile.collection';
import { ProfilesService, settingsPaths } from '../profiles/profiles.service';

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
    const current = await this.profiles.require(userId);
    const settings: UserSettings = { ...DEFAULT_SETTINGS, ...current.settings, ...fields };
    await this.bus.emitWith(
      {
        type: 'user.settings_updated',
        // the language too: auth and notifications write this member's emails and notifications in it
        payload: { userId, ...settings },
        key: userId,
        actorId: userId,
        proof: { collection: profilesCollection, match: { _id: userId, ...settingsPaths(fields) }, present: true },
      },
      () => this.profiles.setSettings(userId, fields),
    );
    if (dto.privacy_profile === 'public') await this.follows.acceptAllPending(userId);
    return settings;
  }
}
