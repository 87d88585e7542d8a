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
  data?: { message?: unknown } | unknown;
}

function serverMessage(err: FailedCall): string | null {
  const m = (err.data as { message?: unknown } | undefined)?.message;
  if (typeof m === 'string' && m.trim()) return m;
  if (Array.isArray(m) && m.length) return String(m[0]);
  return null;
}

/** Login failure text: server message as 'API Error: ...', else by status. */
export function loginErrorText(err: FailedCall): string {
  const msg = serverMessage(err);
  if (msg) return `API Error: ${msg}`;
  const s = err.status;
  if (s === 401) return 'E-posta veya şifre hatalı.';
  if (s === 404) return 'Giriş yapmaya çalıştığınız hesap bulunamadı.';
  if (typeof s === 'number' && s >= 500) return 'Sunucu hatası. Lütfen daha sonra tekrar deneyin.';
  return 'Giriş yapılamadı. Lütfen bağlantınızı kontrol edin ve tekrar deneyin.';
}

/** Register failure text: duplicate email gets the modal text; else the server message or 'Registration failed'. */
export function registerErrorText(err: FailedCall): string {
  if (err.status === 409) return LOGIN_TEXTS.registerFailed;
  return serverMessage(err) ?? 'Registration failed';
}
