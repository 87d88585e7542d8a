import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { appPaths } from './build/app-paths';
import { compileHints } from './build/compile-hints';
import { precompress } from './build/precompress';
import { prerenderLanding } from './build/prerender-landing';
import { preloadApp } from './build/preload-app';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const require = createRequire(import.meta.url);
const ROUTER_PRODUCTION = require.resolve('react-router').replace(/development[/\\]index\.m?js$/, 'production/');

/**
 * Libraries in chunks of their own, named for what they hold: they change far less often than the app,
 * so a new release leaves them cached. socket.io's loads once a signed-in page is idle.
 */
const VENDOR_CHUNKS: Array<[string, RegExp]> = [
  ['react', /node_modules\/(react|react-dom|scheduler)\//],
  // each with the app's module that runs it in a task of its own (src/app/libraries, main.tsx)
  ['router', /node_modules\/(react-router|react-router-dom|cookie|set-cookie-parser)\/|\/src\/app\/libraries\/router\.ts$/],
  ['redux', /node_modules\/(@reduxjs\/toolkit|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store|@standard-schema\/[^/]+)\/|\/src\/app\/libraries\/redux\.ts$/],
  // the app's i18n module (the texts' lookup, web/src/shared/i18n) in a chunk of its own (left alone, the
  // build merged it into the English texts' chunk, so a Turkish page downloaded the English texts too)
  // with the formatter, which reads the language: both are needed by every translated screen and by nothing else
  ['i18n', /\/src\/shared\/(i18n\/(index|language|translate)\.ts|format\.ts)$/],
  // with the app's module that opens the socket, imported once the page is idle (app/realtime.ts)
  ['socket', /node_modules\/(socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io\/component-emitter|xmlhttprequest-ssl)\/|\/src\/core\/socket-connect\.ts$/],
];

/**
 * What the entry (main.tsx) needs to run: Vite's preload helper (every dynamic import goes through it)
 * and the entry's own modules. Named so no library chunk takes them in: left alone the helper went into
 * the i18n chunk, and the entry then waited for i18next and React before it could run.
 */
const BOOT = /vite\/preload-helper|\/src\/(main\.tsx|core\/stored-session\.ts|core\/early-replies\.ts|app\/(screens|paths)\.ts)$/;

/**
 * The app's own code in a few chunks rather than dozens of small ones: each response costs its headers
 * (about 1 KB here, the security headers included) and, on a phone, a request slot.
 * - `app`: what every page runs, the landing page included (core, shared, the app's start, the landing
 *   page, the session's endpoints, lucide's icon base and the icons these draw);
 * - `member`: what every signed-in page runs (the frame, every feature's endpoints and
 *   the other icons, about 0.3 KB each compressed, and the small modules several screens share: OfflineNotice,
 *   the lists' menu and form);
 * - `reviews` and `product-card`: the cards several screens draw.
 * A screen's own code stays in the screen's chunk.
 */
const APP_CHUNKS: Array<[string, RegExp]> = [
  [
    'app',
    /\/src\/(core\/(?!socket-connect)|shared\/(?!i18n\/(?!with-texts)|format\.ts$|NotFoundPage\.tsx$)|app\/(start|AppTree|router|MountingErrorPage|OfflineBanner)\.tsx$|features\/auth\/(LandingPage\.tsx|authApi\.ts)$|features\/settings\/settingsApi\.ts$|features\/moderation\/roles\.ts$)|\/libs\/contracts\/src\/reviews\/catalogue\.ts$|lucide-react\/dist\/esm\/(shared|context|Icon|createLucideIcon|defaultAttributes|icons\/(x|star|book-open|camera|chef-hat|clapperboard|gamepad-2|headphones|message-circle|palette|users|volleyball)\.mjs$)/,
  ],
  // what a review's card draws (the feed, a product's and a member's reviews, a tag, a review): a chunk of its
  // own, so a page showing cards loads no screen it does not show (left alone, the small pages among them
  // (MyReviewsPage, ReviewPage, TagPage) were merged into it, and the contracts it reads into CreateProductPage's)
  [
    'reviews',
    /\/src\/features\/(reviews\/(ReviewCard|CommentItem|Comments|ReviewEditForm|ReviewHistory|ReviewImages|reviewLink|ReviewMoreMenu|ReviewShareMenu|ImageViewer)|tags\/TaggedText|moderation\/ReportDialog)\.tsx?$|\/libs\/contracts\/src\/(reviews\/hashtags|moderation\/report-reasons)\.ts$/,
  ],
  // the same for a product's card, which several screens draw
  ['product-card', /\/src\/features\/products\/ProductCard\.tsx$/],
  [
    'member',
    /\/src\/(app\/(Frame|AvatarMenu|realtime|layout)\.tsx?$|features\/[^/]+\/[a-zA-Z]+Api\.ts$|features\/search\/(SearchBox\.tsx|searchEntries\.ts)$|features\/notifications\/(NotificationBell\.tsx|NotificationTypeIcon\.tsx|notificationMeta\.ts)$|features\/messages\/MessagesLink\.tsx$|features\/auth\/useLogout\.ts$|app\/OfflineNotice\.tsx$|features\/lists\/(listName\.ts|AddToListMenu\.tsx|ListForm\.tsx)$)|lucide-react\/dist\/esm\/icons\//,
  ],
];

function vendorChunk(id: string): string | undefined {
  if (BOOT.test(id)) return 'boot';
  return VENDOR_CHUNKS.find(([, pattern]) => pattern.test(id))?.[0] ?? APP_CHUNKS.find(([, pattern]) => pattern.test(id))?.[0];
}

export default defineConfig(({ mode }) => ({
  root: here('.'),
  plugins: [
    react(),
    // installable app: the shell (html, js, css, icons) is precached so the app opens offline; the API never is
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['icons/icon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'SquadReviews',
        short_name: 'SquadReviews',
        description: 'Share and discover product reviews with friends and squads.',
        lang: 'tr',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        theme_color: '#5b5bd6',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        // the gateway's own paths are never answered with the shell
        navigateFallbackDenylist: [/^\/api\//, /^\/socket\.io\//, /^\/health/, /^\/metrics/],
        cleanupOutdatedCaches: true,
        // the first visit's page is controlled at once, so it works offline without a second load
        clientsClaim: true,
      },
    }),
    preloadApp(),
    // the chunks every signed-in page runs at start (the landing page runs all but member's)
    compileHints(/^(boot|react|redux|router|app|i18n|member)$/),
    prerenderLanding(),
    appPaths(),
    precompress(),
  ],
  resolve: {
    // Exact names: the runtime entry is not a path under the index.
    alias: [
      { find: /^@app\/contracts\/runtime$/, replacement: here('../libs/contracts/src/runtime.ts') },
      { find: /^@app\/contracts$/, replacement: here('../libs/contracts/src/index.ts') },
      // react-router's package exports name only its development build (dev warnings on); the production
      // build beside it is the same code with them off
      ...(mode === 'production'
        ? [
            { find: /^react-router$/, replacement: `${ROUTER_PRODUCTION}index.mjs` },
            { find: /^react-router\/dom$/, replacement: `${ROUTER_PRODUCTION}dom-export.mjs` },
          ]
        : []),
    ],
  },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    sourcemap: true,
    // chunks under 1 KB (single icons, small hooks) join a chunk that loads with them: fewer requests at start.
    // (At 4 KB the small screens were merged into shared modules' chunks and each other's, so a page loaded
    // screens it never shows: /products ListPage's, MySquadsPage's and SearchPage's code, issue 30.)
    rollupOptions: { output: { manualChunks: vendorChunk, experimentalMinChunkSize: 1000 } },
  },
  server: {
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: true },
      '/socket.io': { target: process.env.API_URL ?? 'http://localhost:3000', ws: true, changeOrigin: true },
    },
  },
}));
