import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Below about one packet compression saves no round trip. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli at its best quality, done once per build) and `<file>.gz` beside every
 * text asset the build emits, for the gateway to send by Accept-Encoding (gateway/src/web/precompressed.ts).
 * A file that would not shrink by a tenth keeps no compressed copy.
 */
export function precompress(): Plugin {
  return {
    name: 'squadreviews-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? '';
      for (const name of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const path = join(dir, name);
        const raw = readFileSync(path);
        if (raw.length < MIN_BYTES) continue;
        const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length * 0.9) writeFileSync(`${path}.br`, br);
        if (gz.length < raw.length * 0.9) writeFileSync(`${path}.gz`, gz);
      }
    },
  };
}
