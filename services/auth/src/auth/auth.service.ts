import { HttpException, Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import * as bcrypt from 'bcryptjs';
import { AuthResult, AuthUser, ChangePasswordDto, DEFAULT_LANGUAGE, Language, LoginDto, normaliseEmail, PublicUser, RegisterDto, Role, SessionView } from '@app/contracts';
import { AuthenticatedUser, PLATFORM_CONFIG, PlatformConfig } from '@app/platform';
import { EventBus, PlannedEvent } from '@app/bus';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { UserDoc, usersCollection } from '../users/user.collection';
import { usernameBase, usernameCandidate } from '../users/username';
import { assertStrongPassword } from './password-policy';
import { AuthException } from '../auth.errors';

export const BCRYPT_ROUNDS = Number(process.env.BCRYPT_ROUNDS ?? 10);
const USERNAME_ATTEMPTS = 12;
const INVALID_CREDENTIALS = 'Invalid email or password';
const SESSION_ENDED = 'Invalid or expired token';
const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

const versionOf = (user: UserDoc): number => user.session_version ?? 0;
const roleOf = (user: UserDoc): Role => user.role ?? 'member';

/** ADMIN_EMAILS as a set of addresses in the form accounts store them (normaliseEmail). */
export function parseAdminEmails(value: string): Set<string> {
  return new Set(value.split(',').map(normaliseEmail).filter(Boolean));
}
/**
 * Compared against when the email is unknown, so both failures take the same time. Made by the
 * first login, not at boot (a hash at BCRYPT_ROUNDS, ~150 ms of CPU here at the default 10), and
 * awaited by every login, so the first one costs the same whether the email is known or not.
 */
let dummyHash: Promise<string> | undefined;
const dummyHashOf = (): Promise<string> => (dummyHash ??= bcrypt.hash('not-a-password', BCRYPT_ROUNDS));

/** Username candidates that do not depend on chance (usernameCandidate's first five): what a batch of sign-ups looks up. */
const FIXED_CANDIDATES = 5;

/** One account of a batch of sign-ups: its fields, and its hash, asked for only once its address is known to be free. */
export interface NewAccount {
  dto: Omit<RegisterDto, 'password'>;
  hash: () => Promise<string>;
}

/** The role a new account starts with, and whether it claims being the site's first admin. */
interface NewAccountRole {
  role: Role;
  claimFirst: boolean;
}

export function toAuthUser(doc: UserDoc): AuthUser {
  return {
    id: doc._id,
    username: doc.username,
    email: doc.email,
    display_name: doc.display_name,
    name: doc.name,
    avatar: doc.avatar,
    created_at: doc.created_at,
    role: roleOf(doc),
    // a member from before the language work has none stored: their mail is in the default, so that is theirs
    language: doc.language ?? DEFAULT_LANGUAGE,
  };
}

export function toPublicUser(doc: UserDoc): PublicUser {
  return { id: doc._id, username: doc.username, display_name: doc.display_name, name: doc.name, avatar: doc.avatar };
}

const isSuspended = (user: UserDoc, now = Date.now()): boolean =>
  user.suspended_until !== undefined && Date.parse(user.suspended_until) > now;

/** A 403 that says until when and why; a suspension ends by itself once its time has passed. */
function assertNotSuspended(user: UserDoc): void {
  if (!isSuspended(user)) return;
  const reason = user.suspension_reason ? `: ${user.suspension_reason}` : '';
  throw new AuthException('ACCOUNT_SUSPENDED', `Your account is suspended until ${user.suspended_until}${reason}`);
}

@Injectable()
export class AuthService {
  private readonly users: Collection<UserDoc>;
  private readonly adminEmails: Set<string>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly jwt: JwtService,
    private readonly bus: EventBus,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    this.users = store.collection(usersCollection);
    this.adminEmails = parseAdminEmails(config.ADMIN_EMAILS);
  }

  async register(dto: RegisterDto): Promise<AuthResult> {
    await this.assertEmailFree(dto.email);
    assertStrongPassword(dto.password, 'password', [dto.email, dto.name]);
    return this.issue(await this.createAccount(dto, await bcrypt.hash(dto.password, BCRYPT_ROUNDS)));
  }

  /**
   * A new account with its user.registered, its password already checked and hashed: what
   * registration stores, and what the bulk import stores for each member.
   */
  async createAccount(dto: Omit<RegisterDto, 'password'>, password_hash: string): Promise<UserDoc> {
    await this.assertEmailFree(dto.email);
    return this.insertWithFreeUsername(dto, password_hash, await this.roleForNewAccount(dto.email));
  }

  /**
   * Sign-ups in bulk (the import) under createAccount's rules, account by account in order: an
   * address taken (before, or by an earlier account of the batch) is EMAIL_TAKEN, checked before
   * the hash is asked for; each account gets the first free username of its candidates; on an
   * empty site the first account claims being the first admin. One read of the batch's addresses
   * and usernames, one insert of the accounts, one of their user.registered. A row another writer
   * stored meanwhile (the claim, an address, a username) fails the insert with a duplicate key,
   * and the caller goes account by account.
   */
  async createAccounts(accounts: readonly NewAccount[]): Promise<(UserDoc | HttpException)[]> {
    const bases = accounts.map(({ dto }) => usernameBase(dto.name));
    const candidates = [...new Set(bases.flatMap((base) => Array.from({ length: FIXED_CANDIDATES }, (_, attempt) => usernameCandidate(base, attempt))))];
    const found = await this.users.find(
      { $or: [{ email: { $in: [...new Set(accounts.map(({ dto }) => dto.email))] } }, { username: { $in: candidates } }] },
      { projection: { email: 1, username: 1 } },
    );
    const emails = new Set(found.map((u) => u.email));
    const usernames = new Set(found.map((u) => u.username));
    let claimFirst = found.length === 0 && (await this.users.count({})) === 0;
    const created: UserDoc[] = [];
    const outcomes: (UserDoc | HttpException)[] = [];
    for (const [i, { dto, hash }] of accounts.entries()) {
      if (emails.has(dto.email)) {
        outcomes.push(new AuthException('EMAIL_TAKEN', 'An account with this email already exists'));
        continue;
      }
      let password_hash: string;
      try {
        password_hash = await hash();
      } catch (err) {
        if (!(err instanceof HttpException)) throw err;
        outcomes.push(err);
        continue;
      }
      const username = Array.from({ length: USERNAME_ATTEMPTS }, (_, attempt) => usernameCandidate(bases[i], attempt)).find((name) => !usernames.has(name));
      if (username === undefined) {
        outcomes.push(new AuthException('USERNAME_UNAVAILABLE', 'Could not find a free username; please try another name'));
        continue;
      }
      const user = this.newAccount(dto, username, password_hash, { role: this.adminEmails.has(dto.email) || claimFirst ? 'admin' : 'member', claimFirst });
      claimFirst = false;
      emails.add(user.email);
      usernames.add(user.username);
      created.push(user);
      outcomes.push(user);
    }
    if (created.length > 0) await this.bus.emitAllWith(created.map(registered), () => this.users.insertMany(created));
    return outcomes;
  }

  async assertEmailFree(email: string): Promise<void> {
    if (await this.users.findOne({ email })) {
      throw new AuthException('EMAIL_TAKEN', 'An account with this email already exists');
    }
  }

  /** The member whose email and password these are; login issues a token or asks for the second factor. */
  async authenticate(dto: LoginDto): Promise<UserDoc> {
    const user = await this.users.findOne({ email: dto.email });
    const dummy = await dummyHashOf();
    const ok = await bcrypt.compare(dto.password, user?.password_hash ?? dummy);
    if (!user || !ok) throw new AuthException('INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    // Only after the password: a suspension is nobody's business but the member's.
    assertNotSuspended(user);
    return this.withConfiguredRole(user);
  }

  /** An address added to ADMIN_EMAILS after registering becomes admin at its next login. */
  private async withConfiguredRole(user: UserDoc): Promise<UserDoc> {
    if (roleOf(user) === 'admin' || !this.adminEmails.has(user.email)) return user;
    await this.bus.emitWith(
      {
        type: 'moderation.role_changed',
        payload: { userId: user._id, role: 'admin' },
        key: user._id,
        actorId: user._id,
        proof: { collection: usersCollection, match: { _id: user._id, role: 'admin' }, present: true },
      },
      () => this.users.updateOne({ _id: user._id }, { $set: { role: 'admin' } }),
    );
    return { ...user, role: 'admin' };
  }

  /**
   * An admin's appointment (moderation.role_changed). Admins stay admins (their role comes from
   * being first or from ADMIN_EMAILS). Sessions stay open: every service reads the role from its
   * own copy of the event on the next request (MemberStanding), so no one has to sign in again;
   * the role is stored here for the next token and /auth/me.
   */
  async applyRole(userId: string, role: Role): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user || roleOf(user) === 'admin' || roleOf(user) === role) return;
    await this.users.updateOne({ _id: userId }, { $set: { role } });
  }

  /** A moderator's suspension (moderation.member_suspended): tokens revoked now, login refused until `until`. */
  async applySuspension(userId: string, until: string, reason: string): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user || user.suspended_until === until) return;
    await this.revokeSessions(user, { suspended_until: until, suspension_reason: reason });
  }

  async me(member: AuthenticatedUser): Promise<AuthUser> {
    return toAuthUser(await this.currentSession(member));
  }

  /** What the gateway asks when it does not know a member's cut-off; a revoked token gets 401 here. */
  async session(member: AuthenticatedUser): Promise<SessionView> {
    return { session_version: versionOf(await this.currentSession(member)) };
  }

  /** Ends every session of the member (every device): the token used here stops working too. */
  async logout(member: AuthenticatedUser): Promise<void> {
    await this.revokeSessions(await this.currentSession(member), {});
  }

  /** Sets a new password, revokes every older token and signs a new one. */
  async changePassword(member: AuthenticatedUser, dto: ChangePasswordDto): Promise<{ token: string }> {
    const user = await this.currentSession(member);
    if (!(await bcrypt.compare(dto.current_password, user.password_hash))) {
      throw new AuthException('WRONG_CURRENT_PASSWORD', WRONG_CURRENT_PASSWORD, [{ field: 'current_password', messages: [WRONG_CURRENT_PASSWORD] }]);
    }
    assertStrongPassword(dto.new_password, 'new_password', [user.email, user.name, user.username]);
    await this.revokeSessions(user, { password_hash: await bcrypt.hash(dto.new_password, BCRYPT_ROUNDS) });
    const updated = (await this.users.findById(user._id)) as UserDoc;
    return { token: this.sign(updated) };
  }

  /**
   * The member behind a token whose session is still current. A 401 otherwise (not a 400 or
   * 403): the web clears its session on any 401, which is right for a revoked token.
   */
  async currentSession(member: AuthenticatedUser): Promise<UserDoc> {
    const user = await this.users.findById(member.id);
    if (!user) throw new AuthException('ACCOUNT_GONE', 'Account no longer exists');
    if ((member.sessionVersion ?? 0) < versionOf(user)) throw new AuthException('INVALID_TOKEN', SESSION_ENDED);
    if (isSuspended(user)) throw new AuthException('INVALID_TOKEN', SESSION_ENDED);
    return user;
  }

  /**
   * Bumps the session version (with `fields`) and announces it, so every gateway cuts older tokens
   * off. In force before the reply: each gateway holds the cut-offs in its memory (issue 44), so
   * the request waits until every gateway's relay (and every service's standing) has taken it.
   */
  async revokeSessions(user: UserDoc, fields: Partial<UserDoc>): Promise<void> {
    const version = versionOf(user) + 1;
    await this.bus.emitWith(
      {
        type: 'auth.sessions_revoked',
        payload: { userId: user._id, version },
        key: user._id,
        actorId: user._id,
        proof: { collection: usersCollection, match: { _id: user._id, session_version: version }, present: true },
        inForce: true,
      },
      () => this.users.updateOne({ _id: user._id }, { $set: { ...fields, session_version: version } }),
    );
  }

  async list(skip: number, limit: number): Promise<{ items: PublicUser[]; total: number }> {
    const [docs, total] = await Promise.all([
      this.users.find({}, { sort: { created_at: -1 }, skip, limit }),
      this.users.count({}),
    ]);
    return { items: docs.map(toPublicUser), total };
  }

  /** Keeps the identity fields in step with the profile the social service owns. */
  async applyProfileUpdate(userId: string, fields: Pick<UserDoc, 'username' | 'display_name' | 'avatar'>): Promise<void> {
    const res = await this.users.updateOne({ _id: userId }, { $set: fields });
    if (res.matched === 0) throw new AuthException('ACCOUNT_NOT_FOUND', 'Unknown user');
  }

  /** The member's language as chosen in Settings (an unknown member: nothing to keep). */
  async applyLanguage(userId: string, language: Language): Promise<void> {
    await this.users.updateOne({ _id: userId }, { $set: { language } });
  }

  /**
   * An address in ADMIN_EMAILS is an admin; so is the first account of the site. Being first is a
   * claim, not a count: every sign-up that finds the site empty inserts its row holding the unique
   * `first_admin` key, and only one insert can hold it (the others get a duplicate key and go on as
   * members in insertWithFreeUsername), whatever the store and however many replicas race.
   */
  private async roleForNewAccount(email: string): Promise<NewAccountRole> {
    const empty = (await this.users.count({})) === 0;
    return { role: this.adminEmails.has(email) || empty ? 'admin' : 'member', claimFirst: empty };
  }

  private async insertWithFreeUsername(dto: Omit<RegisterDto, 'password'>, password_hash: string, initial: NewAccountRole): Promise<UserDoc> {
    const base = usernameBase(dto.name);
    let { role, claimFirst } = initial;
    for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
      try {
        return await this.insertAnnounced(this.newAccount(dto, usernameCandidate(base, attempt), password_hash, { role, claimFirst }));
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        // A concurrent registration took the email: same answer as the check above.
        if (await this.users.findOne({ email: dto.email })) {
          throw new AuthException('EMAIL_TAKEN', 'An account with this email already exists');
        }
        if (claimFirst) {
          // Any other row in the way (the claim's holder, or one that took the username) means this
          // account is not the first: a member (unless configured), trying the same username again.
          // Not read back: a row another sign-up of this process has not committed yet is not seen.
          claimFirst = false;
          role = this.adminEmails.has(dto.email) ? 'admin' : 'member';
          attempt--;
        }
      }
    }
    throw new AuthException('USERNAME_UNAVAILABLE', 'Could not find a free username; please try another name');
  }

  private newAccount(dto: Omit<RegisterDto, 'password'>, username: string, password_hash: string, { role, claimFirst }: NewAccountRole): UserDoc {
    return {
      _id: newId(),
      email: dto.email,
      username,
      name: dto.name,
      display_name: dto.name,
      avatar: null,
      password_hash,
      language: dto.language ?? DEFAULT_LANGUAGE,
      role,
      ...(claimFirst && { first_admin: true as const }),
      created_at: new Date().toISOString(),
    };
  }

  /** Inserts the user with its user.registered; a taken email or username throws and drops the event. */
  private insertAnnounced(user: UserDoc): Promise<UserDoc> {
    return this.bus.emitWith(registered(user), () => this.users.insert(user));
  }

  private sign(user: UserDoc): string {
    return this.jwt.sign({ sub: user._id, username: user.username, ver: versionOf(user), role: roleOf(user) });
  }

  issue(user: UserDoc): AuthResult {
    return { token: this.sign(user), user: toAuthUser(user) };
  }
}

/** An account's user.registered. A fresh id per attempt: only the insert that succeeded leaves its row. */
function registered(user: UserDoc): PlannedEvent<'user.registered'> {
  return {
    type: 'user.registered',
    payload: {
      userId: user._id,
      username: user.username,
      email: user.email,
      display_name: user.display_name,
      name: user.name,
      profile_image_url: user.avatar,
      created_at: user.created_at,
      language: user.language,
      role: user.role,
    },
    key: user._id,
    actorId: user._id,
    proof: { collection: usersCollection, match: { _id: user._id }, present: true },
  };
}
