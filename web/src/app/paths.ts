import type { ScreenName } from './screens';

/**
 * Every address the app answers, as patterns (`:name` is one segment). One list for the router
 * (screens.ts, router.tsx) and for the gateway, which answers any other address 404 with the app's
 * page (the build writes the patterns to app-paths.json: web/build/app-paths.ts).
 */

/** The pages without the frame: the landing page, its sign-in and the password reset. */
export const BARE_PATHS = ['/', '/login', '/reset-password'] as const;

/** The screens inside the signed-in frame, by route (the order of <Routes> does not matter: it ranks paths). */
export const FRAMED_PATHS = {
  '/home': 'HomePage',
  '/explore': 'ExplorePage',
  '/messages': 'MessagesPage',
  '/messages/:conversationId': 'MessagesPage',
  '/notifications': 'NotificationsPage',
  '/settings': 'SettingsPage',
  '/my-squads': 'MySquadsPage',
  '/create-squad': 'CreateSquadPage',
  '/squads/:id': 'SquadDetailPage',
  '/create-product': 'CreateProductPage',
  '/my-reviews': 'MyReviewsPage',
  '/friends': 'FriendsPage',
  '/products': 'ProductsPage',
  '/saved': 'SavedPage',
  '/lists/:id': 'ListPage',
  '/search': 'SearchPage',
  '/profile': 'OwnProfilePage',
  '/moderation': 'ModerationPage',
  '/tags/:tag': 'TagPage',
} as const satisfies Record<string, ScreenName>;

/**
 * The pages a shared link opens (issue 43 §3): a visitor reads them, read-only, on a plain page with
 * the visitor bar; a member gets them in the frame.
 */
export const SHARED_PATHS = {
  '/user/:username': 'UserProfilePage',
  '/product/:id': 'ProductDetailPage',
  '/review/:id': 'ReviewPage',
} as const satisfies Record<string, ScreenName>;

/** Every pattern above: what the gateway serves the app's page for with 200. */
export const APP_PATHS: readonly string[] = [...BARE_PATHS, ...Object.keys(FRAMED_PATHS), ...Object.keys(SHARED_PATHS)];
