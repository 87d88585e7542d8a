import type { Plugin } from 'vite';

/** V8's explicit compile hint (Chrome 136+): compile every function of the file while it streams in. */
const HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * Puts the compile hint at the top of the chunks every page runs at start (`chunks`, by name). Chromium
 * then compiles their functions on the thread that streams the script in, where it otherwise compiled
 * each one on the main thread the first time it ran: that lazy compiling was about a third of the
 * modules' evaluation on a phone (issue 30). Added after minification, which drops comments; the
 * source map moves down the one line. The file's name keeps the hash of its code without the hint: a
 * comment, so a browser holding either copy runs the same code.
 */
export function compileHints(chunks: RegExp): Plugin {
  return {
    name: 'squadreviews-compile-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' || !chunks.test(file.name)) continue;
        file.code = HINT + file.code;
        // the map is in the bundle already, as the file written beside the chunk
        const map = bundle[`${file.fileName}.map`];
        if (map?.type === 'asset' && typeof map.source === 'string') {
          const json = JSON.parse(map.source) as { mappings: string };
          map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
        }
      }
    },
  };
}
