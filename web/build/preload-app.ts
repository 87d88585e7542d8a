import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';

/** The app's start module (the entry imports it dynamically, after its early work). */
const START = /\/src\/app\/start\.tsx$/;

/**
 * index.html preloads the app's start chunk and every chunk it imports: the entry (main.tsx) is kept
 * small so it runs at once, and Vite would otherwise only ask for the app's code when the entry runs,
 * one round trip later. Preloaded modules download and compile beside the entry but run only when
 * imported, so the prerendered landing page paints first.
 */
export function preloadApp(): Plugin {
  return {
    name: 'squadreviews-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle as OutputBundle | undefined;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const start = chunks.find((c) => c.moduleIds.some((id) => START.test(id)));
        if (!start) throw new Error('preload-app: the chunk of src/app/start.tsx was not found');
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          (bundle[file] as OutputChunk | undefined)?.imports.forEach(visit);
        };
        visit(start.fileName);
        const links = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
          .join('\n    ');
        return html.replace('</head>', `  ${links}\n  </head>`);
      },
    },
  };
}
