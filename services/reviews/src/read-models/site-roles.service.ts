import { Inject, Injectable } from '@nestjs/common';
import { Role } from '@app/contracts';
import { Collection, STORE, Store } from '@app/store';
import { SiteRoleDoc, siteRolesCollection } from './site-roles.collection';

/**
 * Who is a moderator or admin, as auth announced it (user.registered, moderation.role_changed).
 * Requests are authorised by the token's role; this copy answers questions about other members
 * (may this member be suspended, who is on the staff list).
 */
@Injectable()
export class SiteRolesReadModel {
  private readonly roles: Collection<SiteRoleDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.roles = store.collection(siteRolesCollection);
  }

  /** Idempotent: a member row is removed, a staff row upserted. */
  async set(userId: string, role: Role): Promise<void> {
    if (role === 'member') await this.roles.deleteMany({ _id: userId });
    else await this.roles.updateOne({ _id: userId }, { $set: { role } }, { upsert: true });
  }

  async roleOf(userId: string): Promise<Role> {
    return (await this.roles.findById(userId))?.role ?? 'member';
  }

  async staff(): Promise<SiteRoleDoc[]> {
    return this.roles.find({}, { sort: { _id: 1 } });
  }
}
