import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api';
import { persistSession, sessionReducer } from './session';
import { networkReducer } from './network';
import { toastReducer } from '../shared/toast';

/**
 * The app's store. `inBrowser: false` (the landing page rendered at build time) leaves out what needs a
 * page: refetching on focus and reconnect, and mirroring the session into storage and onto <html>.
 */
export function makeStore({ inBrowser = true }: { inBrowser?: boolean } = {}) {
  const store = configureStore({
    reducer: {
      session: sessionReducer,
      toasts: toastReducer,
      network: networkReducer,
      [api.reducerPath]: api.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  if (!inBrowser) return store;
  setupListeners(store.dispatch);
  let last = store.getState().session;
  persistSession(last);
  store.subscribe(() => {
    const next = store.getState().session;
    if (next !== last) {
      const signedOutNow = last.token && !next.token;
      last = next;
      persistSession(next);
      if (signedOutNow) store.dispatch(api.util.resetApiState());
    }
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useSession = () => useAppSelector((s) => s.session);
