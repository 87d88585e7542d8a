import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { precompress } from './build/precompress';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

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
  },
  server: {
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: true },
      '/socket.io': { target: process.env.API_URL ?? 'http://localhost:3000', ws: true, changeOrigin: true },
    },
  },
});
