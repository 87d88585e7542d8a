import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { makeStore, useAppDispatch, useSession } from './core/store';
import { AppRoutes } from './app/router';
import { errorDetail } from './app/MountingErrorPage';
import { checkDone, signedOut, userLoaded } from './core/session';
import { authApi } from './features/auth/authApi';
import { settingsApi } from './features/settings/settingsApi';
import { Toasts } from './shared/toast';
import { registerSW } from 'virtual:pwa-register';
import { OfflineBanner } from './app/OfflineBanner';
import './styles.css';

/**
 * Fetches the current user at start when a token is stored; a failure clears the session (part 1 §4).
 * Then the member's stored language is applied, so a sign-in on another browser opens in their language.
 */
function SessionCheck() {
  const dispatch = useAppDispatch();
  const { token } = useSession();
  useEffect(() => {
    if (!token) return;
    const sub = dispatch(authApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
    sub
      .unwrap()
      .then((u) => {
        dispatch(userLoaded(u));
        const settings = dispatch(settingsApi.endpoints.settings.initiate(undefined, { forceRefetch: true }));
        settings
          .unwrap()
          .then(async (s) => {
            const i18n = await import('./shared/i18n');
            if (i18n.isLanguage(s.language)) await i18n.applyLanguage(s.language);
          })
          .catch(() => undefined) // no settings: the browser's last language stays
          .finally(() => settings.unsubscribe());
      })
      .catch((e: { status?: number | string }) => {
        if (e?.status === 'FETCH_ERROR' || e?.status === 'TIMEOUT_ERROR') dispatch(checkDone());
        else dispatch(signedOut());
      });
    return () => sub.unsubscribe();
    // only at start and after a new sign-in
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  return null;
}

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

function start() {
  const rootEl = document.getElementById('root');
  if (!rootEl) {
    fatalPage('DOM Error', 'The root element #root was not found in the page.');
    return;
  }
  try {
    const store = makeStore();
    // errors outside the router's boundary (store provider, session check) also end on the fatal page
    const onUncaughtError = (err: unknown) => fatalPage('React Mounting Error', errorDetail(err));
    createRoot(rootEl, { onUncaughtError }).render(
      <StrictMode>
        <Provider store={store}>
          <SessionCheck />
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
          <Toasts />
          <OfflineBanner />
        </Provider>
      </StrictMode>,
    );
  } catch (err) {
    fatalPage('React Mounting Error', errorDetail(err));
  }
}

start();
// the service worker caches the shell; a new build replaces it on the next load (registerType 'autoUpdate')
registerSW({ immediate: true });
