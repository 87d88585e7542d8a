import { cloneElement, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import type { Translation } from './en';
import { LANGUAGE_KEY, type Language } from './language';
import { initialLanguage } from '../../core/stored-session';
import { activeLanguage, addTexts, currentT, hasTexts, interpolate, onTextsChange, rawText, setLanguage, type TFunction } from './translate';

/** Each language's texts are a chunk of their own: a page loads only the one it shows. */
const LOADERS: Record<Language, () => Promise<Translation>> = {
  tr: () => import('./tr').then((m) => m.tr),
  en: () => import('./en').then((m) => m.en),
};

/** Loads a language's texts once (later calls find them). */
export async function loadLanguage(lng: Language): Promise<void> {
  if (hasTexts(lng)) return;
  addTexts(lng, await LOADERS[lng]());
}

// started on first import with no texts; screens render once `i18nReady` (the language's texts) is settled.
// Both languages have every key (i18n.test.ts), so no fallback language is loaded beside one.
setLanguage(initialLanguage());
document.documentElement.lang = activeLanguage();

/** The shown language's texts, loading: every lazily loaded screen waits for them (with-texts.ts). */
export const i18nReady: Promise<void> = loadLanguage(activeLanguage());

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
  if (activeLanguage() === lng) return Promise.resolve();
  if (hasTexts(lng)) {
    setLanguage(lng);
    return Promise.resolve();
  }
  return loadLanguage(lng).then(() => setLanguage(lng));
}

/** The texts' function; the component draws again when the language (or its texts) change. */
export const useT = (): TFunction => useSyncExternalStore(onTextsChange, currentT, currentT);

const TAG = /<(\w+)>(.*?)<\/\1>/g;

/**
 * A text with markup in it (`<code>{{path}}</code> ...`): each `<name>...</name>` is drawn as the element
 * `components[name]` with the (filled-in) words between the tags as its content.
 */
export function Trans({ i18nKey, values, components = {} }: { i18nKey: string; values?: Record<string, unknown>; components?: Record<string, ReactElement> }) {
  useT();
  const text = rawText(i18nKey, values);
  if (text === undefined) return i18nKey;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(TAG)) {
    if (m.index > last) parts.push(interpolate(text.slice(last, m.index), values));
    const element = components[m[1]];
    const inner = interpolate(m[2], values);
    parts.push(element ? cloneElement(element, { key: parts.length }, inner) : inner);
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(interpolate(text.slice(last), values));
  return parts;
}

export { translate, type TFunction, type TOptions } from './translate';
export { currentLanguage, LANGUAGES, isLanguage, type Language } from './language';
