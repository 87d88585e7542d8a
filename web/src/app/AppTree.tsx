import { StrictMode, useEffect, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { useAppDispatch, useSession, type AppStore } from '../core/store';
import { signedOut, userLoaded } from '../core/session';
import { authApi } from '../features/auth/authApi';
import { Toasts } from '../shared/toast';
import { AppRoutes } from './router';
import { OfflineBanner } from './OfflineBanner';

/** Draws the interface in the account's language (a chunk that fails to load leaves the one shown). */
async function applyAccountLanguage(language: unknown): Promise<void> {
  const i18n = await import('../shared/i18n');
  if (i18n.isLanguage(language)) await i18n.applyLanguage(language);
}

/**
 * Checks the stored session at start and after a sign-in (part 1 §4) while the routes already show: a
 * reply other than the user ends the session (a network failure or time-out keeps it). The reply names the
 * account's language in effect (the one its mail is written in), which is applied, so another browser opens in it.
 */
function SessionCheck() {
  const dispatch = useAppDispatch();
  const { token } = useSession();
  useEffect(() => {
    if (!token) return;
    const me = dispatch(authApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
    me.unwrap().then(
      (u) => {
        dispatch(userLoaded(u));
        applyAccountLanguage(u.language).catch(() => undefined);
      },
      (e: { status?: number | string }) => {
        if (e?.status !== 'FETCH_ERROR' && e?.status !== 'TIMEOUT_ERROR') dispatch(signedOut());
      },
    );
    return () => me.unsubscribe();
    // only at start and after a new sign-in
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  return null;
}

/**
 * The whole app under a router: the browser's in the page (start.tsx), a memory router when the landing
 * page is rendered at build time (web/build/landing-entry.tsx), so both give the same markup to hydrate.
 */
export function AppTree({ store, router: Router }: { store: AppStore; router: (props: { children: ReactNode }) => ReactNode }) {
  return (
    <StrictMode>
      <Provider store={store}>
        <SessionCheck />
        <Router>
          <AppRoutes />
        </Router>
        <Toasts />
        <OfflineBanner />
      </Provider>
    </StrictMode>
  );
}
