/**
 * The entry: small and without the app's libraries, so it runs as soon as it arrives. For a stored
 * session it starts the first screen's API calls and chunks (and the interface's texts) at once, beside
 * the app's own code that index.html already preloads; then it starts the app (app/start.tsx). A page
 * the server sent already rendered (the landing page) is painted before the app's code runs.
 */
import './styles.css';
import { applyTheme, initialLanguage, storedDarkMode, storedSession } from './core/stored-session';
import { askEarly, firstCalls } from './core/early-replies';
import { SCREEN_MODULES, firstScreens } from './app/screens';

/**
 * Starts downloading (and compiling) the chunks of these modules without running them: index.html lists
 * each screen's chunks (web/build/preload-app.ts). Running them here would evaluate React, Redux, the
 * router and the screens in one long task as soon as the last chunk arrived; the app imports them
 * itself, each when its turn comes.
 */
function preloadModules(modules: string[]): void {
  let chunks: Record<string, string[]> = {};
  try {
    chunks = JSON.parse(document.getElementById('screen-chunks')?.textContent ?? '{}') as Record<string, string[]>;
  } catch {
    return; // no list (the dev server): the screens load when the router asks for them
  }
  const have = new Set([...document.querySelectorAll('link[rel=modulepreload]')].map((l) => l.getAttribute('href')));
  for (const file of new Set(modules.flatMap((m) => chunks[m] ?? []))) {
    if (have.has(`/${file}`)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    // low, as index.html's (web/build/preload-app.ts): the first paint needs none of them
    link.fetchPriority = 'low';
    link.href = `/${file}`;
    document.head.appendChild(link);
  }
}

// the stored theme at once: the server's first screen and the boot shell are drawn in it, not in the light one
// until the app's store starts (a dark member saw a light page for as long as the app took to load)
applyTheme(storedDarkMode());
// the language this browser shows (chosen, else the browser's): what assistive tech reads the page in
document.documentElement.lang = initialLanguage();

const { token } = storedSession();
if (token) {
  for (const call of firstCalls(window.location.pathname, window.location.search)) askEarly(call, token);
  // the first screen, the interface's texts and the language it will show them in (shared/i18n)
  preloadModules([...firstScreens(window.location.pathname).map((name) => SCREEN_MODULES[name]), 'shared/i18n/index.ts', `shared/i18n/${initialLanguage()}.ts`]);
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * React is evaluated in a task of its own, then Redux, then the router, then the app's code, and the app
 * starts (store, first render) in a last one: on a phone each is tens of milliseconds of work, and every
 * task over 50 ms blocks the page. (Only modules that the app uses whole are imported here: a dynamic
 * import keeps every export of what it names. A failure fails the app's import, which says so.)
 */
async function startApp() {
  for (const library of [() => import('react-dom/client'), () => import('./app/libraries/redux'), () => import('./app/libraries/router')]) {
    await library().catch(() => undefined);
    await nextTask();
  }
  const app = await import('./app/start');
  await nextTask();
  app.start();
}

/** What app/start.tsx dispatches once React has taken over the page (hydrated it, or drawn it anew). */
const HYDRATED_EVENT = 'squadreviews:hydrated';

/**
 * A click on the prerendered page's buttons and links before React has taken it over would be lost (no
 * handler yet): it is held and given again, to the same element, once the app has hydrated the page.
 */
function holdEarlyClicks(root: HTMLElement): void {
  const held: HTMLElement[] = [];
  const hold = (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target.closest<HTMLElement>('button, a[href]') : null;
    if (!target) return;
    e.preventDefault();
    e.stopPropagation();
    held.push(target);
  };
  root.addEventListener('click', hold, true);
  window.addEventListener(
    HYDRATED_EVENT,
    () => {
      root.removeEventListener('click', hold, true);
      for (const el of held.splice(0)) if (el.isConnected) el.click();
    },
    { once: true },
  );
}

const root = document.getElementById('root');
if (root?.dataset.prerendered) {
  holdEarlyClicks(root);
  // after the first frame (the timer in case no frame comes, as in a hidden tab)
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    void startApp();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 1000);
} else void startApp();
