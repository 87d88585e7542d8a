/**
 * The few texts drawn by the first chunk, before (or without) the language files of shared/i18n: the
 * spinner while a screen loads, the fatal page, a toast's close button. Both languages here, picked by the
 * page's language (set by main.tsx and shared/i18n), so the first chunk stays without the i18n chunk (issue 30).
 */
const TEXTS = {
  en: { loading: 'Loading...', mountingError: 'React Mounting Error', reload: 'Reload', close: 'Close', stars: '{n} of 5 stars', star: '{n} star', starMany: '{n} stars' },
  tr: { loading: 'Yükleniyor...', mountingError: 'React Yükleme Hatası', reload: 'Yeniden yükle', close: 'Kapat', stars: "5 üzerinden {n} yıldız", star: '{n} yıldız', starMany: '{n} yıldız' },
};

/** The text of `key` in the page's language, `{n}` filled with `n`. */
export function firstChunkText(key: keyof (typeof TEXTS)['en'], n?: number): string {
  const text = TEXTS[typeof document !== 'undefined' && document.documentElement.lang === 'tr' ? 'tr' : 'en'][key];
  return n === undefined ? text : text.replace('{n}', String(n));
}
