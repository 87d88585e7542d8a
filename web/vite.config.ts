import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { precompress } from './build/precompress';
import { prerenderLanding } from './build/prerender-landing';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Libraries in chunks of their own, named for what they hold: they change far less often than the app,
 * so a new release leaves them cached. socket.io's loads with the signed-in frame only.
 */
const VENDOR_CHUNKS: Array<[string, RegExp]> = [
  ['react', /node_modules\/(react|react-dom|scheduler)\//],
  ['router', /node_modules\/(react-router|react-router-dom|cookie|set-cookie-parser)\//],
  ['redux', /node_modules\/(@reduxjs\/toolkit|redux|redux-thunk|immer|reselect|react-redux|use-sync-external-store|@standard-schema\/[^/]+)\//],
  ['i18n', /node_modules\/(i18next|react-i18next|html-parse-stringify|void-elements)\//],
  ['socket', /node_modules\/(socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io\/component-emitter|xmlhttprequest-ssl)\//],
];

function vendorChunk(id: string): string | undefined {
  return VENDOR_CHUNKS.find(([, pattern]) => pattern.test(id))?.[0];
}

export default defineConfig({
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
    prerenderLanding(),
    precompress(),
  ],
  resolve: {
    // Exact names: the runtime entry is not a path under the index.
    alias: [
      { find: /^@app\/contracts\/runtime$/, replacement: here('../libs/contracts/src/runtime.ts') },
      { find: /^@app\/contracts$/, replacement: here('../libs/contracts/src/index.ts') },
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
});
