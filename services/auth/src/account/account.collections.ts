import { MailOutboxDoc } from '@app/platform';
import { defineCollection } from '@app/store';

/** A password reset link: only the SHA-256 of its token is stored; the token itself is only in the email. */
export interface PasswordResetDoc {
  /** sha256(token), hex. */
  _id: string;
  user_id: string;
  /** The member's session version when asked: any later revocation (another reset, a password change, logout) ends the link. */
  session_version: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export const passwordResetsCollection = defineCollection<PasswordResetDoc>('password_resets', [{ fields: { user_id: 1 } }]);

/** Auth's own mail (reset links), sent by the MailOutboxWorker; the body is dropped once sent. */
export interface AuthMailDoc extends MailOutboxDoc {
  user_id: string;
}

export const authMailCollection = defineCollection<AuthMailDoc>('mail_outbox', [{ fields: { sent_at: 1 }, orderBy: { created_at: 1 } }]);

/** A member's TOTP enrolment (one row per member). */
export interface TwoFactorDoc {
  /** The member's id. */
  _id: string;
  /** AES-256-GCM of the base32 secret (secret-box.ts); null until a setup is confirmed. */
  secret: string | null;
  /** The secret of a setup not confirmed yet (a new setup replaces it). */
  pending_secret: string | null;
  enabled_at: string | null;
  /** HMAC-SHA256 of each unused recovery code. */
  recovery_codes: string[];
  /** The last TOTP time step accepted: a code is used once (replays in its 30 s window are refused). */
  last_step: number;
}

export const twoFactorCollection = defineCollection<TwoFactorDoc>('two_factor');

/** The second step of a login: only the SHA-256 of the challenge handed to the client is stored. */
export interface LoginChallengeDoc {
  _id: string;
  user_id: string;
  session_version: number;
  expires_at: string;
  /** Wrong codes so far: the challenge dies at MAX_CODE_ATTEMPTS. */
  attempts: number;
}

export const loginChallengesCollection = defineCollection<LoginChallengeDoc>('login_challenges', [{ fields: { user_id: 1 } }]);
