import type { AuthErrorCode, CommonErrorCode } from '@app/contracts';
import { errorCode, errorMessage } from '../../core/api';
import { translate } from '../../shared/i18n';
import type { TextKey } from '../../shared/i18n/translate';

interface FailedCall {
  status?: number | string;
  data?: { message?: unknown; code?: unknown } | unknown;
}

function serverMessage(err: FailedCall): string | null {
  const m = (err.data as { message?: unknown } | undefined)?.message;
  if (typeof m === 'string' && m.trim()) return m;
  if (Array.isArray(m) && m.length) return String(m[0]);
  return null;
}

const WRONG_CREDENTIALS = 'authErrors.wrongCredentials';
const NO_ACCOUNT = 'authErrors.noAccount';
const SERVER_DOWN = 'authErrors.serverDown';
const CANNOT_SIGN_IN = 'authErrors.cannotSignIn';

/** The sign-in text of each code the gateway and auth can answer with: a new auth code does not compile until it has one. */
const LOGIN_TEXT_BY_CODE: Record<AuthErrorCode | CommonErrorCode, TextKey> = {
  INVALID_CREDENTIALS: WRONG_CREDENTIALS,
  UNAUTHORIZED: WRONG_CREDENTIALS,
  INVALID_TOKEN: WRONG_CREDENTIALS,
  ACCOUNT_GONE: WRONG_CREDENTIALS,
  ACCOUNT_NOT_FOUND: NO_ACCOUNT,
  NOT_FOUND: NO_ACCOUNT,
  INTERNAL: SERVER_DOWN,
  BAD_GATEWAY: SERVER_DOWN,
  SERVICE_UNAVAILABLE: SERVER_DOWN,
  GATEWAY_TIMEOUT: SERVER_DOWN,
  VALIDATION_FAILED: CANNOT_SIGN_IN,
  BAD_REQUEST: CANNOT_SIGN_IN,
  FORBIDDEN: CANNOT_SIGN_IN,
  CONFLICT: CANNOT_SIGN_IN,
  PAYLOAD_TOO_LARGE: CANNOT_SIGN_IN,
  UNSUPPORTED_MEDIA_TYPE: CANNOT_SIGN_IN,
  RATE_LIMITED: CANNOT_SIGN_IN,
  EMAIL_TAKEN: CANNOT_SIGN_IN,
  USERNAME_UNAVAILABLE: CANNOT_SIGN_IN,
  WEAK_PASSWORD: CANNOT_SIGN_IN,
  WRONG_CURRENT_PASSWORD: CANNOT_SIGN_IN,
  INVALID_RESET_LINK: CANNOT_SIGN_IN,
  TWO_FACTOR_ALREADY_ON: CANNOT_SIGN_IN,
  TWO_FACTOR_NOT_STARTED: CANNOT_SIGN_IN,
  INVALID_TWO_FACTOR_CODE: CANNOT_SIGN_IN,
  TWO_FACTOR_CODE_REQUIRED: CANNOT_SIGN_IN,
  LOGIN_CHALLENGE_EXPIRED: CANNOT_SIGN_IN,
  // The server's message (until when and why) is shown first; this is only its fallback.
  ACCOUNT_SUSPENDED: CANNOT_SIGN_IN,
};

/** Login failure text: the server's message as 'API Error: ...' (in English; a Turkish screen says it by code), else by code (no reply at all: the connection text). */
export function loginErrorText(err: FailedCall): string {
  const code = errorCode(err);
  const msg = serverMessage(err);
  if (msg && (document.documentElement.lang !== 'tr' || !code)) return translate('authErrors.apiError', { message: msg });
  return translate((code && LOGIN_TEXT_BY_CODE[code as AuthErrorCode | CommonErrorCode]) || CANNOT_SIGN_IN);
}

/** Register failure text: a taken email or name gets the modal text; else the server message (English) or 'Registration failed'. */
export function registerErrorText(err: FailedCall): string {
  switch (errorCode(err)) {
    case 'EMAIL_TAKEN':
    case 'USERNAME_UNAVAILABLE':
    case 'CONFLICT':
      return translate('authErrors.registerFailed');
    case 'WEAK_PASSWORD':
      return errorMessage(err, translate('authErrors.weakPassword'));
    default:
      return errorMessage(err, translate('authErrors.registrationFailed'));
  }
}
