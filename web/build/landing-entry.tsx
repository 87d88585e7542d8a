import { configureStore } from '@reduxjs/toolkit';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { sessionReducer } from '../src/core/session';
import { LandingPage } from '../src/features/auth/LandingPage';

/** The landing page as a visitor first sees it, as HTML (prerender-landing.ts puts it into landing.html). */
export function renderLanding(): string {
  const store = configureStore({ reducer: { session: sessionReducer } });
  return renderToString(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/']}>
        <LandingPage />
      </MemoryRouter>
    </Provider>,
  );
}
