import { LANGUAGE_KEY, initialLanguage } from '../../core/stored-session';

type LandingLanguage = 'en' | 'tr';

/**
 * The landing page's few texts, both languages here: the page is prerendered into landing.html and is
 * the first chunk a visitor loads, which the language files (shared/i18n) would make larger (issue 30).
 */
export const LANDING_TEXTS = {
  en: {
    logIn: 'Log in',
    signUp: 'Sign up',
    title: 'Find Squads for Everything You Love',
    sub: 'Share honest product reviews with friends, follow people whose taste you trust and join squads around what you love.',
    start: 'Get Started',
    more: 'Learn more',
    reviewTitle: 'Review products',
    reviewText: 'Rate what you buy from 1 to 5 stars, add photos and tell your friends what you really think.',
    squadsTitle: 'Join squads',
    squadsText: 'Find people who love the same things, from mechanical keyboards to espresso.',
    chatTitle: 'Chat live',
    chatText: 'Message friends one to one or talk with your whole squad in real time.',
    language: 'Language',
  },
  tr: {
    logIn: 'Giriş yap',
    signUp: 'Kaydol',
    title: 'Sevdiğin Her Şey İçin Squad Bul',
    sub: 'Arkadaşlarınla dürüst ürün incelemeleri paylaş, zevkine güvendiğin kişileri takip et ve sevdiğin şeylerin etrafında squadlara katıl.',
    start: 'Hemen Başla',
    more: 'Daha fazlası',
    reviewTitle: 'Ürünleri incele',
    reviewText: "Aldıklarına 1'den 5'e kadar yıldız ver, fotoğraf ekle ve arkadaşlarına gerçekten ne düşündüğünü anlat.",
    squadsTitle: 'Squadlara katıl',
    squadsText: 'Mekanik klavyelerden espressoya, aynı şeyleri seven insanları bul.',
    chatTitle: 'Canlı sohbet et',
    chatText: "Arkadaşlarınla birebir yazış ya da bütün squad'ınla anında konuş.",
    language: 'Dil',
  },
} satisfies Record<LandingLanguage, Record<string, string>>;

/** Each language named in itself. */
export const LANGUAGE_NAMES: Record<LandingLanguage, string> = { en: 'English', tr: 'Türkçe' };

const listeners = new Set<() => void>();

export function onLandingLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The visitor's language: the one chosen here or in Settings, else the browser's. */
export const landingLanguage = (): LandingLanguage => initialLanguage();

/** What landing.html was prerendered in (and what the page hydrates with before switching to the visitor's). */
export const prerenderedLanguage = (): LandingLanguage => 'en';

/** The visitor's choice: kept in this browser, and the rest of the interface (once loaded) follows it. */
export function chooseLandingLanguage(lng: LandingLanguage): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, lng);
  } catch {
    /* storage unavailable: this page still switches */
  }
  document.documentElement.lang = lng;
  for (const listener of listeners) listener();
  // the sign-in dialog's texts (the i18n chunk loads with it, or now)
  void import('../../shared/i18n').then((m) => m.applyLanguage(lng));
}
