import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { makeStore } from '../src/core/store';
import { AppTree } from '../src/app/AppTree';

function AtLanding({ children }: { children: ReactNode }) {
  return <MemoryRouter initialEntries={['/']}>{children}</MemoryRouter>;
}

/**
 * The landing page as a visitor first sees it, as HTML (prerender-landing.ts puts it into landing.html):
 * the app's own tree at `/` with no session, so the browser hydrates exactly this markup (app/start.tsx).
 */
export function renderLanding(): string {
  return renderToString(<AppTree store={makeStore({ inBrowser: false })} router={AtLanding} />);
}
