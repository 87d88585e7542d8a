import { startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { makeStore } from '../core/store';
import { keepFirstScreen } from '../shared/first-screen';
import { errorDetail } from './MountingErrorPage';
import { AppTree } from './AppTree';
import { firstChunkText } from '../shared/first-chunk-texts';
import { registerServiceWorker } from './service-worker';

function fatalPage(title: string, detail?: string) {
  document.body.innerHTML = '';
  const wrap = document.createElement('div');
  wrap.className = 'fatal';
  wrap.setAttribute('style', 'font-family:system-ui,sans-serif;max-width:720px;margin:10vh auto;padding:24px');
  const h = document.createElement('h1');
  h.textContent = title;
  wrap.appendChild(h);
  if (detail) {
    const pre = document.createElement('pre');
    pre.setAttribute('style', 'white-space:pre-wrap;background:#f3f4f6;padding:12px;border-radius:8px;color:#b91c1c');
    pre.textContent = detail;
    wrap.appendChild(pre);
  }
  document.body.appendChild(wrap);
}

/** Tells the entry (main.tsx) that the page is React's now, so clicks it held are given again (or dropped, if drawn anew). */
function Started() {
  useEffect(() => void window.dispatchEvent(new Event('squadreviews:hydrated')), []); // main.tsx's HYDRATED_EVENT
  return null;
}

/**
 * Mounts the app in #root. The landing page the server sent already rendered (landing.html, for a
 * visitor at /) is hydrated: React takes over the markup on screen instead of drawing it again.
 */
function mount() {
  const rootEl = document.getElementById('root');
  if (!rootEl) {
    fatalPage('DOM Error', 'The root element #root was not found in the page.');
    return;
  }
  try {
    const store = makeStore();
    // errors outside the router's boundary (store provider, session check) also end on the fatal page
    const onUncaughtError = (err: unknown) => fatalPage(firstChunkText('mountingError'), errorDetail(err));
    const app = <AppTree store={store} router={BrowserRouter} />;
    const prerendered = rootEl.dataset.prerendered === 'landing' && window.location.pathname === '/' && !store.getState().session.token;
    // in a transition: React renders (or hydrates) the tree in short tasks, not in one long one
    if (prerendered)
      startTransition(
        () =>
          void hydrateRoot(
            rootEl,
            <>
              {app}
              <Started />
            </>,
            { onUncaughtError },
          ),
      );
    else {
      keepFirstScreen(rootEl);
      // the boot shell stays on screen until React's first commit replaces it (the render runs in a transition)
      const root = createRoot(rootEl, { onUncaughtError });
      startTransition(() =>
        root.render(
          <>
            {app}
            <Started />
          </>,
        ),
      );
    }
  } catch (err) {
    fatalPage(firstChunkText('mountingError'), errorDetail(err));
  }
}

/** Called by main.tsx in a task of its own, after this module (and the libraries it imports) evaluated. */
export function start() {
  mount();
  // the service worker caches the shell; registered once the page has loaded (service-worker.ts)
  registerServiceWorker();
}

