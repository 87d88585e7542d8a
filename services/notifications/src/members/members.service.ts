import { Inject, Injectable } from '@nestjs/common';
import { EventPayloads, UserCard } from '@app/contracts';
import { Collection, STORE, Store } from '@app/store';
import { MemberDoc, membersCollection } from './member.collection';

/** How a notification reaches a member: preferences default to on (spec part 1 §9). */
export interface Recipient {
  id: string;
  display_name: string | null;
  email: string | null;
  push: boolean;
  emailOn: boolean;
}

function toCard(doc: MemberDoc): UserCard | null {
  if (doc.username === undefined) return null;
  return {
    id: doc._id,
    username: doc.username,
    display_name: doc.display_name || doc.username,
    profile_image_url: doc.profile_image_url ?? null,
  };
}

/**
 * The member read model. Each event sets only its own fields with an upsert, so the
 * events may arrive in any order and any number of times.
 */
@Injectable()
export class MembersService {
  private readonly members: Collection<MemberDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.members = store.collection(membersCollection);
  }

  async registered(p: EventPayloads['user.registered']): Promise<void> {
    await this.set(p.userId, {
      username: p.username,
      display_name: p.display_name,
      profile_image_url: p.profile_image_url,
      email: p.email,
    });
  }

  async updated(p: EventPayloads['user.updated']): Promise<void> {
    await this.set(p.userId, {
      username: p.username,
      display_name: p.display_name,
      profile_image_url: p.profile_image_url,
    });
  }

  async settingsUpdated(p: EventPayloads['user.settings_updated']): Promise<void> {
    await this.set(p.userId, { notification_push: p.notification_push, notification_email: p.notification_email });
  }

  async card(userId: string): Promise<UserCard | null> {
    const doc = await this.members.findById(userId);
    return doc ? toCard(doc) : null;
  }

  async cards(userIds: string[]): Promise<Map<string, UserCard>> {
    const unique = [...new Set(userIds)];
    const docs = unique.length ? await this.members.find({ _id: { $in: unique } }) : [];
    const cards = new Map<string, UserCard>();
    for (const doc of docs) {
      const card = toCard(doc);
      if (card) cards.set(doc._id, card);
    }
    return cards;
  }

  async recipient(userId: string): Promise<Recipient> {
    const doc = await this.members.findById(userId);
    return {
      id: userId,
      display_name: doc?.display_name ?? null,
      email: doc?.email ?? null,
      push: doc?.notification_push ?? true,
      emailOn: doc?.notification_email ?? true,
    };
  }

  private async set(userId: string, fields: Omit<MemberDoc, '_id'>): Promise<void> {
    await this.members.updateOne({ _id: userId }, { $set: fields }, { upsert: true });
  }
}
