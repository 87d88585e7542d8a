import { activeLanguage } from './translate';

/** English (the default) and Turkish, each wholly in its own language. */
export type Language = 'tr' | 'en';
export const LANGUAGES: readonly Language[] = ['tr', 'en'];
export { LANGUAGE_KEY } from '../../core/stored-session';

export const isLanguage = (v: unknown): v is Language => v === 'tr' || v === 'en';

/** The language the interface is drawn in now (the default before i18n starts, as in unit tests). */
export function currentLanguage(): Language {
  return activeLanguage();
}
