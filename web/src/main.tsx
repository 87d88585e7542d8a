/**
 * The entry: small and without the app's libraries, so it runs as soon as it arrives. For a stored
 * session it starts the first screen's API calls and chunks (and the interface's texts) at once, beside
 * the app's own code that index.html already preloads; then it starts the app (app/start.tsx). A page
 * the server sent already rendered (the landing page) is painted before the app's code runs.
 */
import './styles.css';
import { LANGUAGE_KEY, readStorage, storedSession } from './core/stored-session';
import { askEarly, firstCalls } from './core/early-replies';
import { SCREENS, firstScreens } from './app/screens';

const { token } = storedSession();
if (token) {
  for (const call of firstCalls(window.location.pathname, window.location.search)) askEarly(call, token);
  // the router asks for the same modules; whoever asks first loads them, a failure is the router's to show
  for (const name of firstScreens(window.location.pathname)) SCREENS[name]().catch(() => undefined);
  import('./shared/i18n').catch(() => undefined);
  // and the texts of the language it will show (shared/i18n loads them again from the module cache)
  (readStorage(LANGUAGE_KEY) === 'en' ? import('./shared/i18n/en') : import('./shared/i18n/tr')).catch(() => undefined);
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * React is evaluated in a task of its own, then the rest of the app: on a phone each is about a hundred
 * milliseconds of work, and one task for both held the main thread twice as long. (Only whole modules
 * that the app uses whole are imported here: a dynamic import keeps every export of what it names.)
 */
async function startApp() {
  await import('react-dom/client').catch(() => undefined); // a failure fails the app's import below, which says so
  await nextTask();
  await import('./app/start');
}

if (document.getElementById('root')?.dataset.prerendered) {
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
