import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { precompress } from './build/precompress';
import { prerenderLanding } from './build/prerender-landing';
import { preloadApp } from './build/preload-app';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const require = createRequire(import.meta.url);
const ROUTER_PRODUCTION = require.resolve('react-router').replace(/development[/\\]index\.m?js$/, 'production/');

/**
 * Libraries in chunks of their own, named for what they hold: they change far less often than the app,
 * so a new release leaves them cached. socket.io's loads with the signed-in frame only.
 */
const VENDOR_CHUNKS: Array<[string, RegExp]> = [
  ['react', /node_modules\/(react|react-dom|scheduler)\//],
  ['router', /node_modules\/(react-router|react-router-dom|cookie|set-cookie-parser)\//],
  ['redux', /node_modules\/(@reduxjs\/toolkit|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store|@standard-schema\/[^/]+)\//],
  // the app's i18n module rides with the library: every translated screen needs both (left alone, the
  // build merged it into the English texts' chunk, so a Turkish page downloaded the English texts too)
  ['i18n', /node_modules\/(i18next|react-i18next|html-parse-stringify|void-elements)\/|\/src\/shared\/i18n\/index\.ts$/],
  ['socket', /node_modules\/(socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io\/component-emitter|xmlhttprequest-ssl)\//],
];

/**
 * What the entry (main.tsx) needs to run: Vite's preload helper (every dynamic import goes through it)
 * and the entry's own modules. Named so no library chunk takes them in: left alone the helper went into
 * the i18n chunk, and the entry then waited for i18next and React before it could run.
 */
const BOOT = /vite\/preload-helper|\/src\/(main\.tsx|core\/stored-session\.ts|core\/early-replies\.ts|app\/screens\.ts)$/;

function vendorChunk(id: string): string | undefined {
  if (BOOT.test(id)) return 'boot';
  return VENDOR_CHUNKS.find(([, pattern]) => pattern.test(id))?.[0];
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
    prerenderLanding(),
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
    // chunks under 4 KB (single icons, small hooks) join a chunk that loads with them: fewer requests at start
    rollupOptions: { output: { manualChunks: vendorChunk, experimentalMinChunkSize: 4096 } },
  },
  server: {
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: true },
      '/socket.io': { target: process.env.API_URL ?? 'http://localhost:3000', ws: true, changeOrigin: true },
    },
  },
}));
