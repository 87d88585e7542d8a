import { Language } from '@app/contracts';

/** The password reset email, in the member's language. */
export function resetEmail(language: Language, name: string, link: string, minutes: number): { subject: string; body: string } {
  if (language === 'en') {
    return {
      subject: 'Reset your SquadReviews password',
      body: [
        `Hi ${name},`,
        '',
        'Someone (hopefully you) asked to reset your SquadReviews password. Open this link to choose a new one:',
        '',
        link,
        '',
        `The link works once, for ${minutes} minutes. If you did not ask for it, ignore this email: your password stays as it is.`,
      ].join('\n'),
    };
  }
  return {
    subject: 'SquadReviews şifreni sıfırla',
    body: [
      `Merhaba ${name},`,
      '',
      'Birisi (umarız sen) SquadReviews şifreni sıfırlamak istedi. Yeni bir şifre seçmek için bu bağlantıyı aç:',
      '',
      link,
      '',
      `Bağlantı bir kez ve ${minutes} dakika boyunca geçerli. Bunu sen istemediysen bu e-postayı yok say: şifren değişmez.`,
    ].join('\n'),
  };
}
