import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import * as bcrypt from 'bcryptjs';
import type { Logger } from 'pino';
import { DEFAULT_LANGUAGE, PasswordResetConfirmDto, PasswordResetRequestDto } from '@app/contracts';
import { MailOutboxWorker, PLATFORM_CONFIG, PlatformConfig, SERVICE_LOGGER } from '@app/platform';
import { Collection, newId, STORE, Store } from '@app/store';
import { UserDoc, usersCollection } from '../users/user.collection';
import { AuthService, BCRYPT_ROUNDS } from '../auth/auth.service';
import { assertStrongPassword } from '../auth/password-policy';
import { resetEmail } from './account-mail';
import { AuthMailDoc, authMailCollection, PasswordResetDoc, passwordResetsCollection } from './account.collections';
import { randomToken, sha256 } from './secret-box';
import { AuthException } from '../auth.errors';

export const RESET_TTL_MINUTES = 30;

/**
 * Where links in e-mails point: the site's public origin, APP_ORIGIN, as every absolute link the gateway writes
 * (issue 45 §5). APP_URL is read only as its deprecated alias, when APP_ORIGIN is unset (development).
 */
export function mailLinkOrigin(config: Pick<PlatformConfig, 'APP_ORIGIN' | 'APP_URL'>): string {
  return (config.APP_ORIGIN ?? config.APP_URL).replace(/\/+$/, '');
}
export const INVALID_RESET_LINK = 'This reset link is invalid or has expired';

/**
 * Password reset by email. The reply to a request never depends on the email: the lookup, the
 * token and the mail happen after it, in the background, so neither the answer nor its timing
 * tells whether an account exists.
 */
@Injectable()
export class PasswordResetService implements OnApplicationShutdown {
  private readonly users: Collection<UserDoc>;
  private readonly resets: Collection<PasswordResetDoc>;
  private readonly mail: Collection<AuthMailDoc>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @Inject(STORE) store: Store,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly auth: AuthService,
    private readonly mailer: MailOutboxWorker,
  ) {
    this.users = store.collection(usersCollection);
    this.resets = store.collection(passwordResetsCollection);
    this.mail = store.collection(authMailCollection);
  }

  request(dto: PasswordResetRequestDto): void {
    const work = this.sendLink(dto)
      .catch((err: Error) => this.logger.error({ err: err.message }, 'password reset link not queued'))
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  /** Resolves once every request taken so far has queued its mail (shutdown; tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.idle();
  }

  private async sendLink(dto: PasswordResetRequestDto): Promise<void> {
    const user = await this.users.findOne({ email: dto.email });
    if (!user) return;
    const token = randomToken();
    const now = new Date();
    await this.resets.insert({
      _id: sha256(token),
      user_id: user._id,
      session_version: user.session_version ?? 0,
      expires_at: new Date(now.getTime() + RESET_TTL_MINUTES * 60_000).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    });
    const link = `${mailLinkOrigin(this.config)}/reset-password?token=${token}`;
    const { subject, body } = resetEmail(dto.language ?? user.language ?? DEFAULT_LANGUAGE, user.display_name || user.name, link, RESET_TTL_MINUTES);
    await this.mail.insert({ _id: newId(), user_id: user._id, to: user.email, subject, body, created_at: now.toISOString(), sent_at: null });
    void this.mailer.drain();
  }

  /** Sets the new password once per link, then revokes every older session as logout does. */
  async confirm(dto: PasswordResetConfirmDto): Promise<void> {
    const id = sha256(dto.token);
    const reset = await this.resets.findById(id);
    const user = reset && (await this.users.findById(reset.user_id));
    if (!reset || !user || reset.used_at || Date.parse(reset.expires_at) <= Date.now() || reset.session_version !== (user.session_version ?? 0)) {
      throw invalidLink();
    }
    assertStrongPassword(dto.new_password, 'new_password', [user.email, user.name, user.username]);
    const password_hash = await bcrypt.hash(dto.new_password, BCRYPT_ROUNDS);
    // The claim makes the link single-use even when two confirmations race.
    const claimed = await this.resets.updateOne({ _id: id, used_at: null }, { $set: { used_at: new Date().toISOString() } });
    if (claimed.modified !== 1) throw invalidLink();
    await this.auth.revokeSessions(user, { password_hash });
  }
}

function invalidLink(): AuthException {
  return new AuthException('INVALID_RESET_LINK', INVALID_RESET_LINK, [{ field: 'token', messages: [INVALID_RESET_LINK] }]);
}
