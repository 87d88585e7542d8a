import { FRAMED_PATHS, SHARED_PATHS } from './paths';

/**
 * Every screen's code, loaded on first use: router.tsx wraps each loader in React.lazy, and the entry
 * (main.tsx) calls the first screen's loaders at once, before the app's own code has arrived, so its
 * chunks download beside the app's rather than after it. A module loads once, whoever asks first.
 */
export const SCREENS = {
  Frame: () => import('./Frame'),
  VisitorFrame: () => import('./VisitorFrame'),
  HomePage: () => import('../features/feed/HomePage'),
  ExplorePage: () => import('../features/explore/ExplorePage'),
  MessagesPage: () => import('../features/messages/MessagesPage'),
  NotificationsPage: () => import('../features/notifications/NotificationsPage'),
  SettingsPage: () => import('../features/settings/SettingsPage'),
  MySquadsPage: () => import('../features/squads/MySquadsPage'),
  CreateSquadPage: () => import('../features/squads/CreateSquadPage'),
  SquadDetailPage: () => import('../features/squads/SquadDetailPage'),
  ProductDetailPage: () => import('../features/products/ProductDetailPage'),
  CreateProductPage: () => import('../features/products/CreateProductPage'),
  ProductsPage: () => import('../features/products/ProductsPage'),
  MyReviewsPage: () => import('../features/my-reviews/MyReviewsPage'),
  FriendsPage: () => import('../features/friends/FriendsPage'),
  SearchPage: () => import('../features/search/SearchPage'),
  SavedPage: () => import('../features/saved/SavedPage'),
  ListPage: () => import('../features/lists/ListPage'),
  OwnProfilePage: () => import('../features/profile/OwnProfilePage'),
  UserProfilePage: () => import('../features/profile/UserProfilePage'),
  ModerationPage: () => import('../features/moderation/ModerationPage'),
  ResetPasswordPage: () => import('../features/account/ResetPasswordPage'),
  ReviewPage: () => import('../features/reviews/ReviewPage'),
  TagPage: () => import('../features/tags/TagPage'),
  NotFoundPage: () => import('../shared/NotFoundPage'),
};

export type ScreenName = keyof typeof SCREENS;

/** Each screen's module, as web/build/preload-app.ts names it in index.html's chunk list. */
export const SCREEN_MODULES: Record<ScreenName, string> = {
  Frame: 'app/Frame.tsx',
  VisitorFrame: 'app/VisitorFrame.tsx',
  HomePage: 'features/feed/HomePage.tsx',
  ExplorePage: 'features/explore/ExplorePage.tsx',
  MessagesPage: 'features/messages/MessagesPage.tsx',
  NotificationsPage: 'features/notifications/NotificationsPage.tsx',
  SettingsPage: 'features/settings/SettingsPage.tsx',
  MySquadsPage: 'features/squads/MySquadsPage.tsx',
  CreateSquadPage: 'features/squads/CreateSquadPage.tsx',
  SquadDetailPage: 'features/squads/SquadDetailPage.tsx',
  ProductDetailPage: 'features/products/ProductDetailPage.tsx',
  CreateProductPage: 'features/products/CreateProductPage.tsx',
  ProductsPage: 'features/products/ProductsPage.tsx',
  MyReviewsPage: 'features/my-reviews/MyReviewsPage.tsx',
  FriendsPage: 'features/friends/FriendsPage.tsx',
  SearchPage: 'features/search/SearchPage.tsx',
  SavedPage: 'features/saved/SavedPage.tsx',
  ListPage: 'features/lists/ListPage.tsx',
  OwnProfilePage: 'features/profile/OwnProfilePage.tsx',
  UserProfilePage: 'features/profile/UserProfilePage.tsx',
  ModerationPage: 'features/moderation/ModerationPage.tsx',
  ResetPasswordPage: 'features/account/ResetPasswordPage.tsx',
  ReviewPage: 'features/reviews/ReviewPage.tsx',
  TagPage: 'features/tags/TagPage.tsx',
  NotFoundPage: 'shared/NotFoundPage.tsx',
};

/** The screens inside the signed-in frame, by route (paths.ts). */
export const FRAMED = Object.entries(FRAMED_PATHS) as Array<[string, ScreenName]>;

/** The pages a shared link opens (paths.ts): public, read-only for a visitor. */
export const SHARED = Object.entries(SHARED_PATHS) as Array<[string, ScreenName]>;

function matches(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = path.replace(/\/+$/, '').split('/');
  return a.length === b.length && a.every((part, i) => part.startsWith(':') ? b[i] !== '' : part === b[i]);
}

/**
 * The screens a signed-in member's first load of `path` shows (the frame and the page), as the routes
 * in router.tsx pick them; none for the landing page and the password reset, which have no frame.
 */
export function firstScreens(path: string): ScreenName[] {
  if (path === '/' || path === '/login' || path === '/reset-password') return [];
  const page = [...FRAMED, ...SHARED].find(([pattern]) => matches(pattern, path));
  return ['Frame', page ? page[1] : 'NotFoundPage'];
}
