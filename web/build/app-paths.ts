import type { Plugin } from 'vite';
import { APP_PATHS } from '../src/app/paths';

/** The file the gateway reads to tell an address of the app from one with nothing at it (gateway/src/web/app-page.ts). */
export const APP_PATHS_FILE = 'app-paths.json';

/** Writes the app's address patterns (src/app/paths.ts) beside index.html, so the gateway answers any other address 404. */
export function appPaths(): Plugin {
  return {
    name: 'squadreviews-app-paths',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: APP_PATHS_FILE, source: JSON.stringify(APP_PATHS) });
    },
  };
}
