import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Outlet, createBrowserRouter, useLocation } from 'react-router-dom';
import { useSession } from '../core/store';
import { LandingPage } from '../features/auth/LandingPage';
import { Spinner } from '../shared/ui';
import { MountingErrorPage } from './MountingErrorPage';
import { NotFoundPage } from './NotFoundPage';

/**
 * Every screen behind the landing page is its own chunk (React.lazy), so a visitor's first load carries only
 * the landing page; the frame (with the socket client) and each page load when first opened.
 */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyExoticComponent<ComponentType> {
  return lazy(() => load().then((m) => ({ default: m[name] })));
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
const TagPage = lazyPage(() => import('../features/tags/TagPage'), 'TagPage');

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
    <div className="visitor-page">
      <Outlet />
    </div>
  );
}

function StartGate() {
  const { loading, token } = useSession();
  if (loading && token) return <Spinner label="Loading..." />;
  return <Outlet />;
}

export const routes = [
  {
    element: <StartGate />,
    // a page whose code fails to load or render gets the fatal page with its stack (part 2 §2)
    errorElement: <MountingErrorPage />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/login', element: <LandingPage /> },
      { path: '/reset-password', element: screen(ResetPasswordPage) },
      {
        element: <FrameIfSignedIn />,
        children: [
          { path: '/user/:username', element: screen(UserProfilePage) },
          // an unknown address keeps its URL and says so (it used to redirect to / silently)
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: screen(Frame),
            children: [
              { path: '/home', element: screen(HomePage) },
              { path: '/explore', element: screen(ExplorePage) },
              { path: '/messages', element: screen(MessagesPage) },
              { path: '/messages/:conversationId', element: screen(MessagesPage) },
              { path: '/notifications', element: screen(NotificationsPage) },
              { path: '/settings', element: screen(SettingsPage) },
              { path: '/my-squads', element: screen(MySquadsPage) },
              { path: '/create-squad', element: screen(CreateSquadPage) },
              { path: '/squads/:id', element: screen(SquadDetailPage) },
              { path: '/product/:id', element: screen(ProductDetailPage) },
              { path: '/create-product', element: screen(CreateProductPage) },
              { path: '/my-reviews', element: screen(MyReviewsPage) },
              { path: '/friends', element: screen(FriendsPage) },
              { path: '/products', element: screen(ProductsPage) },
              { path: '/saved', element: screen(SavedPage) },
              { path: '/lists/:id', element: screen(ListPage) },
              { path: '/search', element: screen(SearchPage) },
              { path: '/profile', element: screen(OwnProfilePage) },
              { path: '/moderation', element: screen(ModerationPage) },
              { path: '/tags/:tag', element: screen(TagPage) },
            ],
          },
        ],
      },
    ],
  },
];

export const makeRouter = () => createBrowserRouter(routes);
