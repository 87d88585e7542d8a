/**
 * The interface's texts, looked up and filled in: what the app used of i18next (a key path with dots,
 * `{{name}}` filled from the options, `_one`/`_other` forms picked by `count` with the language's plural
 * rules, `lng` for another loaded language, the key itself when a text is missing), in a few lines. i18next
 * and react-i18next were 17 KB compressed of every signed-in page's first screen, and their `t` was tens
 * of milliseconds of a phone's main thread at start (issue 30).
 */
import { isLanguage, type Language } from './language';
import type { en } from './en';

type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type KeysOf<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K extends `${infer Base}_${PluralForm}` ? Base : K}` : KeysOf<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Every text's key, dotted (`nav.home`); a plural text by its base (`items` for `items_one`): a misspelt key fails to compile. */
export type TextKey = KeysOf<typeof en>;

type Texts = { [key: string]: string | Texts };

/** Options of a text: the values its `{{name}}`s are filled with, `count` (picks the plural form) and `lng`. */
export type TOptions = { count?: number; lng?: Language } & Record<string, unknown>;
export type TFunction = (key: TextKey, options?: TOptions) => string;

const bundles = new Map<Language, Texts>();
const plurals = new Map<Language, Intl.PluralRules>();
const listeners = new Set<() => void>();
let language: Language | undefined;

function lookup(texts: Texts | undefined, key: string): string | undefined {
  let node: string | Texts | undefined = texts;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const VARIABLE = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** Fills a text's `{{name}}`s from `values` (a missing value leaves nothing, as i18next did). */
export function interpolate(text: string, values: Record<string, unknown> | undefined): string {
  if (!text.includes('{{')) return text;
  return text.replace(VARIABLE, (_, name: string) => {
    const value = values?.[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

function pluralOf(lng: Language, count: number): string {
  let rules = plurals.get(lng);
  if (!rules) plurals.set(lng, (rules = new Intl.PluralRules(lng)));
  return rules.select(count);
}

/** The text of `key` as written in the language's file (the plural form for `count`), without filling it in. */
export function rawText(key: string, options?: TOptions): string | undefined {
  const lng = options?.lng ?? activeLanguage();
  const texts = bundles.get(lng);
  const count = options?.count;
  if (typeof count === 'number') {
    const form = (count === 0 ? lookup(texts, `${key}_zero`) : undefined) ?? lookup(texts, `${key}_${pluralOf(lng, count)}`);
    if (form !== undefined) return form;
  }
  return lookup(texts, key);
}

/** The text of `key` in the current language (or `options.lng`), filled in; the key itself when there is none. */
export const translate: TFunction = (key, options) => {
  const text = rawText(key, options);
  return text === undefined ? key : interpolate(text, options);
};

/** The language texts are drawn in; English (the default) before one is chosen. */
export function activeLanguage(): Language {
  return language ?? 'en';
}

/** A new function each time the texts change, so a component that reads it draws again (useT). */
const freshT = (): TFunction => (key, options) => translate(key, options);
let current = freshT();

function changed(): void {
  current = freshT();
  for (const listener of listeners) listener();
}

export function currentT(): TFunction {
  return current;
}

export function onTextsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function hasTexts(lng: Language): boolean {
  return bundles.has(lng);
}

export function addTexts(lng: Language, texts: Texts): void {
  bundles.set(lng, texts);
  if (lng === activeLanguage()) changed();
}

/** Switches the language texts are drawn in (at once: its texts are expected to be here, or to follow). */
export function setLanguage(lng: Language): void {
  if (language === lng || !isLanguage(lng)) return;
  language = lng;
  changed();
}
