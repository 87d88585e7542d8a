import { Navigate, Outlet, createBrowserRouter, useLocation } from 'react-router-dom';
import { useSession } from './store';
import { Frame } from './Frame';
import { LandingPage } from '../features/auth/LandingPage';
import { HomePage } from '../features/feed/HomePage';
import { ExplorePage } from '../features/explore/ExplorePage';
import { MessagesPage } from '../features/messages/MessagesPage';
import { NotificationsPage } from '../features/notifications/NotificationsPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { MySquadsPage } from '../features/squads/MySquadsPage';
import { CreateSquadPage } from '../features/squads/CreateSquadPage';
import { SquadDetailPage } from '../features/squads/SquadDetailPage';
import { ProductDetailPage } from '../features/products/ProductDetailPage';
import { CreateProductPage } from '../features/products/CreateProductPage';
import { ProductsPage } from '../features/products/ProductsPage';
import { MyReviewsPage } from '../features/my-reviews/MyReviewsPage';
import { FriendsPage } from '../features/friends/FriendsPage';
import { SavedPage } from '../features/saved/SavedPage';
import { OwnProfilePage } from '../features/profile/OwnProfilePage';
import { UserProfilePage } from '../features/profile/UserProfilePage';
import { Spinner } from '../shared/ui';

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
  '/profile',
];

export function RequireAuth() {
  const { token, user } = useSession();
  const location = useLocation();
  if (!token || !user) return <Navigate to="/" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** /user/{username} is public: signed in it gets the frame, as a visitor a plain page. */
function PublicProfile() {
  const { token, user } = useSession();
  if (token && user) return <Frame />;
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
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/login', element: <LandingPage /> },
      {
        element: <PublicProfile />,
        children: [{ path: '/user/:username', element: <UserProfilePage /> }],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <Frame />,
            children: [
              { path: '/home', element: <HomePage /> },
              { path: '/explore', element: <ExplorePage /> },
              { path: '/messages', element: <MessagesPage /> },
              { path: '/messages/:conversationId', element: <MessagesPage /> },
              { path: '/notifications', element: <NotificationsPage /> },
              { path: '/settings', element: <SettingsPage /> },
              { path: '/my-squads', element: <MySquadsPage /> },
              { path: '/create-squad', element: <CreateSquadPage /> },
              { path: '/squads/:id', element: <SquadDetailPage /> },
              { path: '/product/:id', element: <ProductDetailPage /> },
              { path: '/create-product', element: <CreateProductPage /> },
              { path: '/my-reviews', element: <MyReviewsPage /> },
              { path: '/friends', element: <FriendsPage /> },
              { path: '/products', element: <ProductsPage /> },
              { path: '/saved', element: <SavedPage /> },
              { path: '/profile', element: <OwnProfilePage /> },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export const makeRouter = () => createBrowserRouter(routes);
