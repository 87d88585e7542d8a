import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';

/** The app's start module (the entry imports it dynamically, after its early work). */
const START = /\/src\/app\/start\.tsx$/;

/** The modules whose chunks the entry may preload for a member's first screen (app/screens.ts's SCREENS, the texts). */
const PRELOADABLE = /\/src\/(app\/(Frame|VisitorFrame)\.tsx|shared\/NotFoundPage\.tsx|features\/[^/]+\/[A-Za-z]+Page\.tsx|shared\/i18n\/(index|en|tr)\.ts)$/;

/** The id of the JSON data block in index.html: module name (as in PRELOADABLE) -> the chunks it needs. */
export const CHUNKS_ID = 'screen-chunks';

/**
 * index.html preloads the app's start chunk and every chunk it imports: the entry (main.tsx) is kept
 * small so it runs at once, and Vite would otherwise only ask for the app's code when the entry runs,
 * one round trip later. Preloaded modules download and compile beside the entry but run only when
 * imported, so the prerendered landing page paints first. They are asked for at low priority: the
 * first paint needs only the HTML (its top bar and skeleton), and Lighthouse's simulation counts every
 * request of high priority started before that paint as needed for it.
 *
 * It also carries, as a JSON data block (not a script: the CSP runs none inline), the chunks each screen
 * and each language's texts need, so the entry can preload a member's first screen without running it
 * (main.tsx): running it would evaluate every library in one long task.
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
        const closure = (file: string, files = new Set<string>()) => {
          if (files.has(file)) return files;
          files.add(file);
          (bundle[file] as OutputChunk | undefined)?.imports.forEach((f) => closure(f, files));
          return files;
        };
        const start = chunks.find((c) => c.moduleIds.some((id) => START.test(id)));
        if (!start) throw new Error('preload-app: the chunk of src/app/start.tsx was not found');
        const startFiles = closure(start.fileName);
        const links = [...startFiles]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`)
          .join('\n    ');
        const screens: Record<string, string[]> = {};
        for (const chunk of chunks)
          for (const id of chunk.moduleIds) {
            const m = PRELOADABLE.exec(id);
            if (m) screens[m[1]] = [...closure(chunk.fileName)].filter((f) => !startFiles.has(f));
          }
        const data = `<script type="application/json" id="${CHUNKS_ID}">${JSON.stringify(screens)}</script>`;
        return html.replace('</head>', `  ${links}\n    ${data}\n  </head>`);
      },
    },
  };
}
