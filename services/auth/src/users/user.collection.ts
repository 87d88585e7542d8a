import { Language, Role } from '@app/contracts';
import { defineCollection } from '@app/store';

/** Credentials and the identity fields the token and /auth/me need. Only this service sees hashes. */
export interface UserDoc {
  _id: string;
  email: string;
  username: string;
  name: string;
  display_name: string;
  avatar: string | null;
  password_hash: string;
  /** Bumped by logout and password change: tokens whose `ver` is lower are revoked. Absent means 0. */
  session_version?: number;
  /** The account's language (sign-up, then Settings via user.settings_updated); absent (members from before it) means the default. */
  language?: Language;
  /** Site role (issue 22 §3); absent means member. */
  role?: Role;
  /** Set by a moderator's suspension: login is refused until then, with the reason. */
  suspended_until?: string;
  suspension_reason?: string;
  /**
   * Set (true) on the one account that became admin by being first on an empty site: a unique
   * sparse key, so however many sign-ups race on an empty site, one insert holds it and the rest
   * get a duplicate key and register as members (docs/decisions/auth.md). Gone with the account.
   */
  first_admin?: true;
  created_at: string;
}

export const usersCollection = defineCollection<UserDoc>('users', [
  { fields: { email: 1 }, unique: true },
  { fields: { username: 1 }, unique: true },
  { fields: { created_at: -1 } },
  { fields: { first_admin: 1 }, unique: true, sparse: true },
]);
