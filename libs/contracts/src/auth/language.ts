/** A member's language: their interface, emails and notifications. English unless they chose Turkish. */
export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec part 1, "Settings defaults": language en. */
export const DEFAULT_LANGUAGE: Language = 'en';
