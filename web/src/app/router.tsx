import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { useSession } from '../core/store';
import { LandingPage } from '../features/auth/LandingPage';
import { withTexts } from '../shared/i18n/with-texts';
import { Spinner } from '../shared/ui';
import { MountingErrorBoundary } from './MountingErrorPage';

/**
 * Every screen behind the landing page is its own chunk (React.lazy), so a visitor's first load carries only
 * the landing page; the frame (with the socket client) and each page load when first opened, with the
 * interface's texts (withTexts).
 */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyExoticComponent<ComponentType> {
  return lazy(() => withTexts(load).then((m) => ({ default: m[name] })));
}

const Frame = lazyPage(() => import('./Frame'), 'Frame');
const HomePage = lazyPage(() => import('../features/feed/HomePage'), 'HomePage');
const ExplorePage = lazyPage(() => import('../features/explore/ExplorePage'), 'ExplorePage');
const MessagesPage = lazyPage(() => import('../features/messages/MessagesPage'), 'MessagesPage');
const NotificationsPage = lazyPage(() => import('../features/notifications/NotificationsPage'), 'NotificationsPage');
const SettingsPage = lazyPage(() => import('../features/settings/SettingsPage'), 'SettingsPage');
const MySquadsPage = lazyPage(() => import('../features/squads/MySquadsPage'), 'MySquadsPage');
const CreateSquadPage = lazyPage(() => import('../features/squads/CreateSquadPage'), 'CreateSquadPage');
const SquadDetailPage = lazyPage(() => import('../features/squads/SquadDetailPage'), 'SquadDetailPage');
const ProductDetailPage = lazyPage(() => import('../features/products/ProductDetailPage'), 'ProductDetailPage');
const CreateProductPage = lazyPage(() => import('../features/products/CreateProductPage'), 'CreateProductPage');
const ProductsPage = lazyPage(() => import('../features/products/ProductsPage'), 'ProductsPage');
const MyReviewsPage = lazyPage(() => import('../features/my-reviews/MyReviewsPage'), 'MyReviewsPage');
const FriendsPage = lazyPage(() => import('../features/friends/FriendsPage'), 'FriendsPage');
const SearchPage = lazyPage(() => import('../features/search/SearchPage'), 'SearchPage');
const SavedPage = lazyPage(() => import('../features/saved/SavedPage'), 'SavedPage');
const ListPage = lazyPage(() => import('../features/lists/ListPage'), 'ListPage');
const OwnProfilePage = lazyPage(() => import('../features/profile/OwnProfilePage'), 'OwnProfilePage');
const UserProfilePage = lazyPage(() => import('../features/profile/UserProfilePage'), 'UserProfilePage');
const ModerationPage = lazyPage(() => import('../features/moderation/ModerationPage'), 'ModerationPage');
const ResetPasswordPage = lazyPage(() => import('../features/account/ResetPasswordPage'), 'ResetPasswordPage');
const ReviewPage = lazyPage(() => import('../features/reviews/ReviewPage'), 'ReviewPage');
const TagPage = lazyPage(() => import('../features/tags/TagPage'), 'TagPage');
const NotFoundPage = lazyPage(() => import('./NotFoundPage'), 'NotFoundPage');

/** A lazy screen with the spinner while its chunk loads. */
function screen(Page: LazyExoticComponent<ComponentType>) {
  return (
    <Suspense fallback={<Spinner label="Loading..." />}>
      <Page />
    </Suspense>
  );
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
  '/product/:id',
  '/create-product',
  '/my-reviews',
  '/friends',
  '/products',
  '/saved',
  '/lists/:id',
  '/profile',
  '/moderation',
  '/tags/:tag',
  '/review/:id',
];

export function RequireAuth() {
  const { token, user } = useSession();
  const location = useLocation();
  if (!token || !user) return <Navigate to="/" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** /user/{username} and the not-found page are public: signed in they get the frame, as a visitor a plain page. */
function FrameIfSignedIn() {
  const { token, user } = useSession();
  if (token && user) return screen(Frame);
  return (
    <main className="visitor-page">
      <Outlet />
    </main>
  );
}

function StartGate() {
  const { loading, token } = useSession();
  if (loading && token) return <Spinner label="Loading..." />;
  return <Outlet />;
}

const FRAMED: Array<[string, LazyExoticComponent<ComponentType>]> = [
  ['/home', HomePage],
  ['/explore', ExplorePage],
  ['/messages', MessagesPage],
  ['/messages/:conversationId', MessagesPage],
  ['/notifications', NotificationsPage],
  ['/settings', SettingsPage],
  ['/my-squads', MySquadsPage],
  ['/create-squad', CreateSquadPage],
  ['/squads/:id', SquadDetailPage],
  ['/product/:id', ProductDetailPage],
  ['/create-product', CreateProductPage],
  ['/my-reviews', MyReviewsPage],
  ['/friends', FriendsPage],
  ['/products', ProductsPage],
  ['/saved', SavedPage],
  ['/lists/:id', ListPage],
  ['/search', SearchPage],
  ['/profile', OwnProfilePage],
  ['/moderation', ModerationPage],
  ['/tags/:tag', TagPage],
  ['/review/:id', ReviewPage],
];

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
        <Route element={<StartGate />}>
          <Route path="/" element={<LandingPage />} />
          <Route path="/login" element={<LandingPage />} />
          <Route path="/reset-password" element={screen(ResetPasswordPage)} />
          <Route element={<FrameIfSignedIn />}>
            <Route path="/user/:username" element={screen(UserProfilePage)} />
            {/* an unknown address keeps its URL and says so (it used to redirect to / silently) */}
            <Route path="*" element={screen(NotFoundPage)} />
          </Route>
          <Route element={<RequireAuth />}>
            <Route element={screen(Frame)}>
              {FRAMED.map(([path, Page]) => (
                <Route key={path} path={path} element={screen(Page)} />
              ))}
            </Route>
          </Route>
        </Route>
      </Routes>
    </MountingErrorBoundary>
  );
}
