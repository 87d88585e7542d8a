import type { AuthErrorCode, CommonErrorCode } from '@app/contracts';
import { errorCode } from '../../core/api';

/** Error texts of the landing modal (part 1 §5, §8). */
export const LOGIN_TEXTS = {
  emailBlank: 'E-posta adresi boş olamaz',
  passwordBlank: 'Şifre boş olamaz',
  nameBlank: 'Kullanıcı adı gerekli',
  unexpectedShape: 'Giriş yapılamadı: Beklenmeyen yanıt formatı',
  registerShape: 'Registration failed: Invalid response format',
  registerFailed: 'Kayıt işlemi başarısız. Bu e-posta adresi zaten kullanılmış olabilir.',
  unexpected: 'Beklenmeyen bir hata oluştu. Lütfen tekrar deneyin.',
};

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

const WRONG_CREDENTIALS = 'E-posta veya şifre hatalı.';
const NO_ACCOUNT = 'Giriş yapmaya çalıştığınız hesap bulunamadı.';
const SERVER_DOWN = 'Sunucu hatası. Lütfen daha sonra tekrar deneyin.';
const CANNOT_SIGN_IN = 'Giriş yapılamadı. Lütfen bağlantınızı kontrol edin ve tekrar deneyin.';

/** The sign-in text of each code the gateway and auth can answer with: a new auth code does not compile until it has one. */
const LOGIN_TEXT_BY_CODE: Record<AuthErrorCode | CommonErrorCode, string> = {
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

/** Login failure text: the server's message as 'API Error: ...', else by code (no reply at all: the connection text). */
export function loginErrorText(err: FailedCall): string {
  const msg = serverMessage(err);
  if (msg) return `API Error: ${msg}`;
  const code = errorCode(err);
  return (code && LOGIN_TEXT_BY_CODE[code as AuthErrorCode | CommonErrorCode]) || CANNOT_SIGN_IN;
}

/** Register failure text: a taken email or name gets the modal text; else the server message or 'Registration failed'. */
export function registerErrorText(err: FailedCall): string {
  switch (errorCode(err)) {
    case 'EMAIL_TAKEN':
    case 'USERNAME_UNAVAILABLE':
    case 'CONFLICT':
      return LOGIN_TEXTS.registerFailed;
    default:
      return serverMessage(err) ?? 'Registration failed';
  }
}
