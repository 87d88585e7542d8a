import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { useSession } from '../core/store';
import { LandingPage } from '../features/auth/LandingPage';
import { withTexts } from '../shared/i18n/with-texts';
import { FirstScreenOr, FrameShell } from '../shared/first-screen';
import { MountingErrorBoundary } from './MountingErrorPage';
import { FRAMED, SCREENS, SHARED, type ScreenName } from './screens';
import { firstChunkText } from '../shared/first-chunk-texts';

/**
 * Every screen behind the landing page is its own chunk (React.lazy), so a visitor's first load carries only
 * the landing page; the frame (with the socket client) and each page load when first opened, with the
 * interface's texts (withTexts).
 */
function lazyPage(load: () => Promise<object>, name: string): LazyExoticComponent<ComponentType> {
  return lazy(() => withTexts(load).then((m) => ({ default: (m as Record<string, ComponentType>)[name] })));
}

const Page = Object.fromEntries(Object.keys(SCREENS).map((name) => [name, lazyPage(SCREENS[name as ScreenName], name)])) as Record<
  ScreenName,
  LazyExoticComponent<ComponentType>
>;
const Frame = Page.Frame;

/**
 * A lazy screen with the spinner while its chunk loads, or the server's first screen of this
 * address (shared/first-screen.tsx): whole for the frame, its page's part for a page inside it.
 */
function screen(Screen: LazyExoticComponent<ComponentType>, part: 'shell' | 'content' = 'content') {
  return (
    <Suspense fallback={<FirstScreenOr part={part} label={firstChunkText('loading')}>{part === 'shell' ? <FrameShell /> : undefined}</FirstScreenOr>}>
      <Screen />
    </Suspense>
  );
}

/**
 * Asked for once a visitor moves to sign in or up: the frame and Home download while the form is filled in,
 * so the signed-in first screen draws at once (issue 43 §5).
 */
function loadSignedInScreens(): void {
  void withTexts(SCREENS.Frame);
  void withTexts(SCREENS.HomePage);
}

/** Guarded routes (part 2 §2): a visitor is sent to / with the history entry replaced. */
export const GUARDED_PATHS = [
  '/home',
  '/explore',
  '/messages',
  '/notifications',
  '/settings',
  '/my-squads',
  '/create-squad',
  '/squads/:id',
  '/create-product',
  '/my-reviews',
  '/friends',
  '/products',
  '/saved',
  '/lists/:id',
  '/profile',
  '/moderation',
  '/tags/:tag',
];

export function RequireAuth() {
  const { token, user } = useSession();
  const location = useLocation();
  if (!token || !user) return <Navigate to="/" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/**
 * The shared pages (a profile, a product, a review) and the not-found page are public: signed in they
 * get the frame, as a visitor a plain page under the visitor bar.
 */
function FrameIfSignedIn() {
  const { token, user } = useSession();
  return screen(token && user ? Frame : Page.VisitorFrame, 'shell');
}

/**
 * The app's routes. Declarative (<Routes>) rather than a data router: the app loads no route data
 * through the router, and the data router's code was half the landing page's router chunk.
 */
export function AppRoutes() {
  const location = useLocation();
  return (
    // a page whose code fails to load or render gets the fatal page with its stack (part 2 §2); another address tries again
    <MountingErrorBoundary resetKey={location.pathname}>
      <Routes>
        <Route path="/" element={<LandingPage onSignInIntent={loadSignedInScreens} />} />
        <Route path="/login" element={<LandingPage onSignInIntent={loadSignedInScreens} />} />
        <Route path="/reset-password" element={screen(Page.ResetPasswordPage)} />
        <Route element={<FrameIfSignedIn />}>
          {SHARED.map(([path, name]) => (
            <Route key={path} path={path} element={screen(Page[name])} />
          ))}
          {/* an unknown address keeps its URL and says so (it used to redirect to / silently) */}
          <Route path="*" element={screen(Page.NotFoundPage)} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={screen(Frame, 'shell')}>
            {FRAMED.map(([path, name]) => (
              <Route key={path} path={path} element={screen(Page[name])} />
            ))}
          </Route>
        </Route>
      </Routes>
    </MountingErrorBoundary>
  );
}
