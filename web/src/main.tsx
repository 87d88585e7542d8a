/**
 * The entry: small and without the app's libraries, so it runs as soon as it arrives. For a stored
 * session it starts the first screen's API calls and chunks (and the interface's texts) at once, beside
 * the app's own code that index.html already preloads; then it starts the app (app/start.tsx). A page
 * the server sent already rendered (the landing page) is painted before the app's code runs.
 */
import './styles.css';
import { storedSession } from './core/stored-session';
import { askEarly, firstCalls } from './core/early-replies';
import { SCREENS, firstScreens } from './app/screens';

const { token } = storedSession();
if (token) {
  for (const call of firstCalls(window.location.pathname, window.location.search)) askEarly(call, token);
  // the router asks for the same modules; whoever asks first loads them, a failure is the router's to show
  for (const name of firstScreens(window.location.pathname)) SCREENS[name]().catch(() => undefined);
  import('./shared/i18n').catch(() => undefined);
}

const startApp = () => void import('./app/start');

if (document.getElementById('root')?.firstElementChild) {
  // after the first frame (the timer in case no frame comes, as in a hidden tab)
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    startApp();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 250);
} else startApp();
