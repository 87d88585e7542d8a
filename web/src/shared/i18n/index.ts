import i18next from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { Translation } from './tr';
import { LANGUAGE_KEY, isLanguage, type Language } from './language';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Translation };
  }
}

/** Each language's texts are a chunk of their own: a page loads only the one it shows. */
const LOADERS: Record<Language, () => Promise<Translation>> = {
  tr: () => import('./tr').then((m) => m.tr),
  en: () => import('./en').then((m) => m.en),
};

/** Loads a language's texts once (later calls find them). */
export async function loadLanguage(lng: Language): Promise<void> {
  if (i18next.hasResourceBundle(lng, 'translation')) return;
  i18next.addResourceBundle(lng, 'translation', await LOADERS[lng]());
}

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : 'tr';
  } catch {
    return 'tr';
  }
}

// started on first import with no texts; screens render once `i18nReady` (the stored language's texts) is settled.
// English has every key of the default (i18n.test.ts), so no fallback language is loaded beside it.
if (!i18next.isInitialized) {
  void i18next.use(initReactI18next).init({
    resources: {},
    lng: storedLanguage(),
    fallbackLng: false,
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
    react: { useSuspense: false },
  });
  document.documentElement.lang = i18next.language;
}

/** The stored language's texts, loading: every lazily loaded screen waits for them (with-texts.ts). */
export const i18nReady: Promise<void> = loadLanguage(isLanguage(i18next.language) ? i18next.language : 'tr');

/**
 * Switches the interface language and remembers it in this browser (the server keeps the member's choice).
 * Texts already here switch at once; otherwise once their chunk arrived (the promise settles then).
 */
export function applyLanguage(lng: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, lng);
  } catch {
    /* storage unavailable */
  }
  document.documentElement.lang = lng;
  if (i18next.language === lng) return Promise.resolve();
  if (i18next.hasResourceBundle(lng, 'translation')) {
    void i18next.changeLanguage(lng);
    return Promise.resolve();
  }
  return loadLanguage(lng).then(() => void i18next.changeLanguage(lng));
}

/** i18next's language as an external store (useT). */
function onLanguageChange(listener: () => void): () => void {
  i18next.on('languageChanged', listener);
  return () => i18next.off('languageChanged', listener);
}
const languageNow = () => i18next.language;

/**
 * The texts' `t`, and a render again whenever the language changes. react-i18next listens from an
 * effect, so a switch that lands between a component's render and its effects (the member's language
 * arriving while the first screen renders) went unseen and the screen stayed in the old language;
 * React's external-store hook checks for a change made in that gap.
 */
export const useT = () => {
  useSyncExternalStore(onLanguageChange, languageNow);
  return useTranslation().t;
};
export { currentLanguage, LANGUAGES, isLanguage, type Language } from './language';
