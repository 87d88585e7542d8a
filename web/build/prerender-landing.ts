import react from '@vitejs/plugin-react';
import type { OutputBundle } from 'rollup';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';

/** `html` with its stylesheet links replaced by the stylesheets themselves. */
function inlineStyles(html: string, bundle: OutputBundle): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, file: string) => {
    const css = bundle[file];
    return css && css.type === 'asset' ? `<style>${String(css.source).replace(/<\/style/gi, '<\\/style')}</style>` : link;
  });
}

/** The file the gateway answers `/` and `/login` with (gateway/src/web/spa.ts). */
export const LANDING_HTML = 'landing.html';

/**
 * Writes `landing.html`: index.html with the landing page already in #root, rendered at build time
 * (react-dom/server through a throwaway Vite server in SSR mode), its stylesheet inline. A visitor's
 * first paint then needs that one HTML reply, not the app's JavaScript or CSS; the app replaces it with the same page when it
 * starts. Other routes keep the empty index.html (a member's /home must not flash the landing page).
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'squadreviews-prerender-landing',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') return;
      const server = await createServer({
        configFile: false,
        root: config.root,
        resolve: { alias: config.resolve.alias },
        plugins: [react()],
        appType: 'custom',
        logLevel: 'error',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderLanding } = (await server.ssrLoadModule('/build/landing-entry.tsx')) as { renderLanding: () => string };
        // the stylesheet inline in both pages (the CSP allows inline styles): the first paint (index.html's
        // placeholder, the landing page) waits for no second request
        const page = inlineStyles(String(index.source), bundle);
        index.source = page;
        const root = /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/;
        if (!root.test(page)) throw new Error('prerender-landing: #root not found in index.html');
        // data-prerendered: the entry lets it paint, then loads the app, which hydrates it (app/start.tsx).
        // Nothing on the page waits for a script: the entry comes at low priority and the app's chunks
        // are not preloaded, so the page's first paint shares the line with none of them.
        const html = page
          .replace(root, (_m, end: string) => `<div id="root" data-prerendered="landing">${renderLanding()}</div>${end}`)
          .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
          .replace(/<script type="module" /g, '<script type="module" fetchpriority="low" ');
        this.emitFile({ type: 'asset', fileName: LANDING_HTML, source: html });
      } finally {
        await server.close();
      }
    },
  };
}
