import { ConflictException, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import * as bcrypt from 'bcryptjs';
import { AuthResult, AuthUser, LoginDto, PublicUser, RegisterDto } from '@app/contracts';
import { EventBus } from '@app/bus';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { UserDoc, usersCollection } from '../users/user.collection';
import { usernameBase, usernameCandidate } from '../users/username';

const BCRYPT_ROUNDS = Number(process.env.BCRYPT_ROUNDS ?? 10);
const USERNAME_ATTEMPTS = 12;
const INVALID_CREDENTIALS = 'Invalid email or password';
/** Compared against when the email is unknown, so both failures take the same time. */
const DUMMY_HASH = bcrypt.hashSync('not-a-password', BCRYPT_ROUNDS);

export function toAuthUser(doc: UserDoc): AuthUser {
  return {
    id: doc._id,
    username: doc.username,
    email: doc.email,
    display_name: doc.display_name,
    name: doc.name,
    avatar: doc.avatar,
    created_at: doc.created_at,
  };
}

export function toPublicUser(doc: UserDoc): PublicUser {
  return { id: doc._id, username: doc.username, display_name: doc.display_name, name: doc.name, avatar: doc.avatar };
}

@Injectable()
export class AuthService {
  private readonly users: Collection<UserDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly jwt: JwtService,
    private readonly bus: EventBus,
  ) {
    this.users = store.collection(usersCollection);
  }

  async register(dto: RegisterDto): Promise<AuthResult> {
    if (await this.users.findOne({ email: dto.email })) {
      throw new ConflictException('An account with this email already exists');
    }
    const password_hash = await bcrypt.hash(dto.password, BCRYPT_ROUNDS);
    const user = await this.insertWithFreeUsername(dto, password_hash);
    return this.session(user);
  }

  async login(dto: LoginDto): Promise<AuthResult> {
    const user = await this.users.findOne({ email: dto.email });
    const ok = await bcrypt.compare(dto.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) throw new UnauthorizedException(INVALID_CREDENTIALS);
    return this.session(user);
  }

  async me(userId: string): Promise<AuthUser> {
    const user = await this.users.findById(userId);
    if (!user) throw new UnauthorizedException('Account no longer exists');
    return toAuthUser(user);
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
    if (res.matched === 0) throw new NotFoundException('Unknown user');
  }

  private async insertWithFreeUsername(dto: RegisterDto, password_hash: string): Promise<UserDoc> {
    const base = usernameBase(dto.name);
    for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
      try {
        return await this.insertAnnounced({
          _id: newId(),
          email: dto.email,
          username: usernameCandidate(base, attempt),
          name: dto.name,
          display_name: dto.name,
          avatar: null,
          password_hash,
          created_at: new Date().toISOString(),
        });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        // A concurrent registration took the email: same answer as the check above.
        if (await this.users.findOne({ email: dto.email })) {
          throw new ConflictException('An account with this email already exists');
        }
      }
    }
    throw new ConflictException('Could not find a free username; please try another name');
  }

  /** Inserts the user with its user.registered; a taken email or username throws and drops the event. */
  private insertAnnounced(user: UserDoc): Promise<UserDoc> {
    return this.bus.emitWith(
      {
        type: 'user.registered',
        payload: {
          userId: user._id,
          username: user.username,
          email: user.email,
          display_name: user.display_name,
          name: user.name,
          profile_image_url: user.avatar,
          created_at: user.created_at,
        },
        key: user._id,
        actorId: user._id,
        // A fresh id per attempt: only the insert that succeeded leaves its row.
        proof: { collection: usersCollection, match: { _id: user._id }, present: true },
      },
      () => this.users.insert(user),
    );
  }

  private session(user: UserDoc): AuthResult {
    const token = this.jwt.sign({ sub: user._id, username: user.username });
    return { token, user: toAuthUser(user) };
  }
}
