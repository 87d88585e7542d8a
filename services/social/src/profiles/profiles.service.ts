import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_SETTINGS, EventPayloads, UpdateProfileDto, UserCard, UserProfile } from '@app/contracts';
import { EventBus } from '@app/bus';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { FollowDoc, followsCollection } from '../follows/follow.collection';
import { canViewContent } from '../relations/privacy';
import { RelationsService } from '../relations/relations.service';
import { ActivityService } from '../stats/activity.service';
import { ProfileDoc, profilesCollection, profileSearchKey } from './profile.collection';
import { SocialException } from '../social.errors';

export type FollowCounter = 'followers_count' | 'following_count';

export const USER_NOT_FOUND = 'User not found';

export function toCard(doc: ProfileDoc): UserCard {
  return { id: doc._id, username: doc.username, display_name: doc.display_name, profile_image_url: doc.profile_image_url };
}

/** A newcomer's profile from their registration, with the follows that arrived before it counted. */
function profileOf(p: EventPayloads['user.registered'], followers_count: number, following_count: number): ProfileDoc {
  const username = p.username.toLowerCase();
  const display_name = p.display_name || p.name;
  return {
    _id: p.userId,
    username,
    display_name,
    name: p.name,
    email: p.email,
    bio: '',
    profile_image_url: p.profile_image_url,
    created_at: p.created_at,
    followers_count,
    following_count,
    // the language the newcomer signed up in (spec default otherwise)
    settings: { ...DEFAULT_SETTINGS, ...(p.language ? { language: p.language } : {}) },
    search_key: profileSearchKey.of({ username, display_name }),
  };
}

@Injectable()
export class ProfilesService {
  private readonly profiles: Collection<ProfileDoc>;
  private readonly follows: Collection<FollowDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly relations: RelationsService,
    private readonly activity: ActivityService,
    private readonly bus: EventBus,
  ) {
    this.profiles = store.collection(profilesCollection);
    this.follows = store.collection(followsCollection);
  }

  /**
   * From `user.registered`; a redelivery finds the profile already there and changes nothing. The
   * newcomer may have followed someone before this service heard of them (the event came late):
   * those follows raised no counter of theirs, so the counters start from the rows.
   */
  async createFromRegistration(p: EventPayloads['user.registered']): Promise<void> {
    if (await this.profiles.findById(p.userId)) return;
    const [followers_count, following_count] = await Promise.all([
      this.follows.count({ followee_id: p.userId, status: 'following' }),
      this.follows.count({ follower_id: p.userId, status: 'following' }),
    ]);
    try {
      await this.profiles.insert(profileOf(p, followers_count, following_count));
    } catch (err) {
      // A concurrent delivery of the same event won the insert: nothing left to do.
      if (!(err instanceof DuplicateKeyError) || !(await this.profiles.findById(p.userId))) throw err;
    }
  }

  /**
   * A run of `user.registered`, as `createFromRegistration` each: one lookup, two counts and one
   * insert for the lot; one by one when the insert is refused (a concurrent delivery won a row).
   */
  async createManyFromRegistration(registrations: ReadonlyArray<EventPayloads['user.registered']>): Promise<void> {
    const known = new Set((await this.profiles.find({ _id: { $in: [...new Set(registrations.map((p) => p.userId))] } })).map((d) => d._id));
    const newcomers = new Map<string, EventPayloads['user.registered']>();
    for (const p of registrations) if (!known.has(p.userId) && !newcomers.has(p.userId)) newcomers.set(p.userId, p);
    if (newcomers.size === 0) return;
    const ids = [...newcomers.keys()];
    const [followers, following] = await Promise.all([
      this.follows.countBy({ followee_id: { $in: ids }, status: 'following' }, 'followee_id'),
      this.follows.countBy({ follower_id: { $in: ids }, status: 'following' }, 'follower_id'),
    ]);
    try {
      await this.profiles.insertMany([...newcomers.values()].map((p) => profileOf(p, followers.get(p.userId) ?? 0, following.get(p.userId) ?? 0)));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      for (const p of newcomers.values()) await this.createFromRegistration(p);
    }
  }

  findById(id: string): Promise<ProfileDoc | null> {
    return this.profiles.findById(id);
  }

  async require(id: string): Promise<ProfileDoc> {
    const doc = await this.profiles.findById(id);
    if (!doc) throw new SocialException('USER_NOT_FOUND', USER_NOT_FOUND);
    return doc;
  }

  async byIds(ids: string[]): Promise<Map<string, ProfileDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await this.profiles.find({ _id: { $in: ids } });
    return new Map(docs.map((d) => [d._id, d]));
  }

  find(...args: Parameters<Collection<ProfileDoc>['find']>): Promise<ProfileDoc[]> {
    return this.profiles.find(...args);
  }

  count(filter: Parameters<Collection<ProfileDoc>['count']>[0]): Promise<number> {
    return this.profiles.count(filter);
  }

  /**
   * Moves a follow counter by one. Callers raise it before the follow row exists and lower it
   * after the row is gone, so the counter is never below the row count; the `$gt` guard
   * keeps it from going negative even if stored data were ever off.
   */
  async bump(userId: string, counter: FollowCounter, delta: 1 | -1): Promise<void> {
    const filter = delta < 0 ? { _id: userId, [counter]: { $gt: 0 } } : { _id: userId };
    await this.profiles.updateOne(filter, { $inc: { [counter]: delta } });
  }

  /** Raises follow counters of many members by their own amounts (a batch of follows): one update for them all. */
  async raiseMany(counter: FollowCounter, raises: ReadonlyMap<string, number>): Promise<void> {
    await this.profiles.incrementEach([...raises].map(([id, amount]) => ({ id, inc: { [counter]: amount } })));
  }

  async view(viewerId: string, username: string): Promise<UserProfile> {
    const doc = await this.profiles.findOne({ username: username.toLowerCase() });
    if (!doc) throw new SocialException('USER_NOT_FOUND', USER_NOT_FOUND);
    const isSelf = doc._id === viewerId;
    const [status, reviews] = await Promise.all([this.relations.status(viewerId, doc._id), this.activity.reviews(doc._id)]);
    const privacy = doc.settings.privacy_profile;
    return {
      ...toCard(doc),
      name: doc.name,
      bio: doc.bio,
      ...(isSelf && { email: doc.email }),
      created_at: doc.created_at,
      followers_count: doc.followers_count,
      following_count: doc.following_count,
      reviews_count: reviews,
      follow_status: status,
      privacy_profile: privacy,
      can_view_content: canViewContent(privacy, {
        isSelf,
        blocked: status.isBlocked || status.isBlockedBy,
        approvedFollower: status.isFollowing,
      }),
    };
  }

  /** PUT /users/profile: only the named fields change; a rename is announced so auth follows it. */
  async update(userId: string, dto: UpdateProfileDto): Promise<UserProfile> {
    const current = await this.require(userId);
    const fields: Partial<ProfileDoc> = {};
    if (dto.display_name !== undefined) fields.display_name = dto.display_name;
    if (dto.username !== undefined) fields.username = dto.username;
    if (dto.bio !== undefined) fields.bio = dto.bio;
    if (dto.profile_image_url !== undefined) fields.profile_image_url = dto.profile_image_url;
    if (fields.username && fields.username !== current.username && (await this.profiles.findOne({ username: fields.username }))) {
      throw new SocialException('USERNAME_TAKEN', 'Username is already taken');
    }
    const next = { ...current, ...fields };
    let updated: ProfileDoc | null;
    try {
      updated = await this.bus.emitWith(
        {
          type: 'user.updated',
          payload: {
            userId,
            username: next.username,
            display_name: next.display_name,
            bio: next.bio,
            profile_image_url: next.profile_image_url,
          },
          key: userId,
          actorId: userId,
          proof: { collection: profilesCollection, match: { _id: userId, ...(fields as Record<string, string | null>) }, present: true },
        },
        () => this.profiles.findOneAndUpdate({ _id: userId }, { $set: { ...fields, search_key: profileSearchKey.of(next) } }),
      );
    } catch (err) {
      // Lost a race for the same username.
      if (err instanceof DuplicateKeyError) throw new SocialException('USERNAME_TAKEN', 'Username is already taken');
      throw err;
    }
    if (!updated) throw new SocialException('USER_NOT_FOUND', USER_NOT_FOUND);
    await profileSearchKey.settle(this.profiles, updated);
    return this.view(userId, updated.username);
  }

  /** Settings live on the profile so the follow rules read privacy with the profile itself. */
  async setSettings(userId: string, fields: Record<string, unknown>): Promise<ProfileDoc> {
    const prefixed = settingsPaths(fields);
    const doc = Object.keys(prefixed).length
      ? await this.profiles.findOneAndUpdate({ _id: userId }, { $set: prefixed })
      : await this.profiles.findById(userId);
    if (!doc) throw new SocialException('USER_NOT_FOUND', USER_NOT_FOUND);
    return doc;
  }
}

/** Settings fields as the dotted paths they are stored under on the profile. */
export function settingsPaths<V>(fields: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [`settings.${k}`, v]));
}
