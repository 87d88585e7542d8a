import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { tr } from './tr';
import { en } from './en';
import { LANGUAGE_KEY, isLanguage, type Language } from './language';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof tr };
  }
}

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : 'tr';
  } catch {
    return 'tr';
  }
}

// started on first import, synchronously (resources are bundled), so the first render already has its texts
if (!i18next.isInitialized) {
  void i18next.use(initReactI18next).init({
    resources: { tr: { translation: tr }, en: { translation: en } },
    lng: storedLanguage(),
    fallbackLng: 'tr',
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
  });
  document.documentElement.lang = i18next.language;
}

/** Switches the interface language and remembers it in this browser (the server keeps the member's choice). */
export function applyLanguage(lng: Language): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, lng);
  } catch {
    /* storage unavailable */
  }
  document.documentElement.lang = lng;
  if (i18next.language !== lng) void i18next.changeLanguage(lng);
}

export const useT = () => useTranslation().t;
export { currentLanguage, LANGUAGES, isLanguage, type Language } from './language';
