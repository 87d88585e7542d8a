import { Inject, Injectable } from '@nestjs/common';
import * as bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';
import { AuthErrorCode, RecoveryCodesView, TWO_FACTOR_CODE_MESSAGE, TwoFactorChallenge, TwoFactorDisableDto, TwoFactorSetupView, TwoFactorStatusView, TwoFactorVerifyDto } from '@app/contracts';
import { AuthenticatedUser, PLATFORM_CONFIG, PlatformConfig } from '@app/platform';
import { Collection, STORE, Store } from '@app/store';
import { UserDoc, usersCollection } from '../users/user.collection';
import { AuthService } from '../auth/auth.service';
import { LoginChallengeDoc, loginChallengesCollection, TwoFactorDoc, twoFactorCollection } from './account.collections';
import { randomToken, SecretBox, sha256 } from './secret-box';
import { AuthException } from '../auth.errors';
import { newTotpSecret, totpUri, verifyTotp } from './totp';

const ISSUER = 'SquadReviews';
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong codes one challenge takes before it dies (with the per-address budget, guessing 6 digits is hopeless). */
export const MAX_CODE_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;
/** A code from the step before or after is accepted too (clocks drift). */
const TOLERANCE_SECONDS = 30;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export const INVALID_CODE = 'Invalid code';
export const EXPIRED_CHALLENGE = 'This sign-in has expired; please sign in again';
const WRONG_PASSWORD = 'Password is incorrect';

const fieldError = (code: AuthErrorCode, field: string, message: string) => new AuthException(code, message, [{ field, messages: [message] }]);

/** xxxxx-xxxxx, 50 random bits. */
function recoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => BASE32[b % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Two-factor sign-in with TOTP (RFC 6238) and one-time recovery codes. */
@Injectable()
export class TwoFactorService {
  private readonly users: Collection<UserDoc>;
  private readonly enrolments: Collection<TwoFactorDoc>;
  private readonly challenges: Collection<LoginChallengeDoc>;
  private readonly box: SecretBox;

  constructor(
    @Inject(STORE) store: Store,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    private readonly auth: AuthService,
  ) {
    this.users = store.collection(usersCollection);
    this.enrolments = store.collection(twoFactorCollection);
    this.challenges = store.collection(loginChallengesCollection);
    this.box = new SecretBox(config.JWT_SECRET);
  }

  async status(member: AuthenticatedUser): Promise<TwoFactorStatusView> {
    await this.auth.currentSession(member);
    const doc = await this.enrolments.findById(member.id);
    return { enabled: Boolean(doc?.enabled_at), recovery_codes_left: doc?.enabled_at ? doc.recovery_codes.length : 0 };
  }

  /** A new secret waiting for its first code; shown only now, as the otpauth URL and its QR code. */
  async setup(member: AuthenticatedUser): Promise<TwoFactorSetupView> {
    const user = await this.auth.currentSession(member);
    const doc = await this.enrolments.findById(user._id);
    if (doc?.enabled_at) throw new AuthException('TWO_FACTOR_ALREADY_ON', 'Two-factor sign-in is already on');
    const secret = newTotpSecret();
    await this.enrolments.updateOne(
      { _id: user._id },
      { $set: { pending_secret: this.box.seal(secret), secret: null, enabled_at: null, recovery_codes: [], last_step: 0 } },
      { upsert: true },
    );
    const otpauth_url = totpUri(secret, ISSUER, user.email);
    return { otpauth_url, qr_code: await qrCodeOf(otpauth_url) };
  }

  /** The first code proves the app holds the secret; the recovery codes are shown this once. */
  async enable(member: AuthenticatedUser, code: string): Promise<RecoveryCodesView> {
    const user = await this.auth.currentSession(member);
    const doc = await this.enrolments.findById(user._id);
    if (doc?.enabled_at) throw new AuthException('TWO_FACTOR_ALREADY_ON', 'Two-factor sign-in is already on');
    if (!doc?.pending_secret) throw fieldError('TWO_FACTOR_NOT_STARTED', 'code', 'Start the setup first');
    const step = this.verifyTotp(this.box.open(doc.pending_secret), code, 0);
    if (step === null) throw fieldError('INVALID_TWO_FACTOR_CODE', 'code', INVALID_CODE);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
    const set = await this.enrolments.updateOne(
      { _id: user._id, pending_secret: doc.pending_secret },
      {
        $set: {
          secret: doc.pending_secret,
          pending_secret: null,
          enabled_at: new Date().toISOString(),
          recovery_codes: codes.map((c) => this.macCode(c)),
          last_step: step,
        },
      },
    );
    if (set.modified !== 1) throw fieldError('TWO_FACTOR_NOT_STARTED', 'code', 'Start the setup first');
    return { recovery_codes: codes };
  }

  async disable(member: AuthenticatedUser, dto: TwoFactorDisableDto): Promise<void> {
    const user = await this.auth.currentSession(member);
    if (!(await bcrypt.compare(dto.password, user.password_hash))) throw fieldError('WRONG_CURRENT_PASSWORD', 'password', WRONG_PASSWORD);
    await this.enrolments.deleteOne({ _id: user._id });
    await this.challenges.deleteMany({ user_id: user._id });
  }

  /**
   * A sensitive act (deleting the account) asks what a sign-in asks: with two-factor on, a code from the app
   * or an unused recovery code, refused as a field error when missing or wrong.
   */
  async confirmSensitive(userId: string, code: string | undefined): Promise<void> {
    const doc = await this.enrolments.findById(userId);
    if (!doc?.enabled_at || !doc.secret) return;
    if (!code) throw fieldError('TWO_FACTOR_CODE_REQUIRED', 'code', TWO_FACTOR_CODE_MESSAGE);
    if (!(await this.useCode(doc, code))) throw fieldError('INVALID_TWO_FACTOR_CODE', 'code', INVALID_CODE);
  }

  /** For a member with two-factor on: the challenge login answers instead of a token. */
  async challengeFor(user: UserDoc): Promise<TwoFactorChallenge | null> {
    const doc = await this.enrolments.findById(user._id);
    if (!doc?.enabled_at) return null;
    const challenge = randomToken();
    await this.challenges.insert({
      _id: sha256(challenge),
      user_id: user._id,
      session_version: user.session_version ?? 0,
      expires_at: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString(),
      attempts: 0,
    });
    return { two_factor_required: true, challenge };
  }

  /** The login's second step: a TOTP code or an unused recovery code; the member to sign in. */
  async verify(dto: TwoFactorVerifyDto): Promise<UserDoc> {
    const id = sha256(dto.challenge);
    const challenge = await this.challenges.findById(id);
    const user = challenge && (await this.users.findById(challenge.user_id));
    const doc = user && (await this.enrolments.findById(user._id));
    if (
      !challenge ||
      !user ||
      !doc?.secret ||
      Date.parse(challenge.expires_at) <= Date.now() ||
      challenge.attempts >= MAX_CODE_ATTEMPTS ||
      challenge.session_version !== (user.session_version ?? 0)
    ) {
      throw fieldError('LOGIN_CHALLENGE_EXPIRED', 'challenge', EXPIRED_CHALLENGE);
    }
    if (!(await this.useCode(doc, dto.code))) {
      await this.challenges.updateOne({ _id: id }, { $inc: { attempts: 1 } });
      throw fieldError('INVALID_TWO_FACTOR_CODE', 'code', INVALID_CODE);
    }
    // Deleting it is the claim: a challenge signs in once.
    if ((await this.challenges.deleteOne({ _id: id })) !== 1) throw fieldError('LOGIN_CHALLENGE_EXPIRED', 'challenge', EXPIRED_CHALLENGE);
    return user;
  }

  private async useCode(doc: TwoFactorDoc, code: string): Promise<boolean> {
    if (/^\d{6}$/.test(code)) {
      const step = this.verifyTotp(this.box.open(doc.secret as string), code, doc.last_step);
      if (step === null) return false;
      // Guarded by the step read: the same code sent twice at once is accepted once.
      const res = await this.enrolments.updateOne({ _id: doc._id, last_step: doc.last_step }, { $set: { last_step: step } });
      return res.modified === 1;
    }
    const mac = this.macCode(code);
    if (!doc.recovery_codes.includes(mac)) return false;
    const res = await this.enrolments.updateOne({ _id: doc._id }, { $pull: { recovery_codes: mac } });
    return res.modified === 1;
  }

  private verifyTotp(secret: string, code: string, afterStep: number): number | null {
    return verifyTotp(secret, code, afterStep, TOLERANCE_SECONDS);
  }

  private macCode(code: string): string {
    return this.box.mac(code.replace(/-/g, '').toLowerCase());
  }
}

/** qrcode is loaded when a member first sets up two-factor sign-in, not at boot. */
function qrCodeOf(text: string): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { toDataURL } = require('qrcode') as typeof import('qrcode');
  return toDataURL(text, { margin: 1, width: 220 });
}
