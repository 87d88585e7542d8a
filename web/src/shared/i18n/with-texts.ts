/**
 * A lazily loaded module once the interface's texts are here too. The i18n module and the active language load
 * with the first screen that shows translated text, so the landing page (its texts are the spec's own)
 * goes without them.
 */
export function withTexts<T>(load: () => Promise<T>): Promise<T> {
  return Promise.all([load(), import('./index').then((m) => m.i18nReady)]).then(([m]) => m);
}
