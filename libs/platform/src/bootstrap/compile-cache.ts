import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `module.enableCompileCache` of Node 22.1+ (absent on Node 20, whose types this project uses). */
interface WithCompileCache {
  enableCompileCache?: (directory?: string) => { status: number; directory?: string };
}

/** Where the cache goes unless NODE_COMPILE_CACHE says (Node keys its entries by its own version and each file's content). */
export const COMPILE_CACHE_DIR = join(tmpdir(), 'squadreviews-compile-cache');

/**
 * Keeps V8's compiled code of every module loaded from now on, on disk, and reuses it at the next
 * start: each process of the stack spends about half of its start compiling some 1,600 modules
 * (issue 44). On Node 22.1+ only; elsewhere nothing happens and undefined is returned. With
 * NODE_COMPILE_CACHE set Node has enabled it already, in that folder. A cache that cannot be
 * written (a read-only temporary folder) only costs the speed-up: Node reports it, it never throws.
 */
export function enableCompileCache(node: WithCompileCache = nodeModule as WithCompileCache): string | undefined {
  if (typeof node.enableCompileCache !== 'function') return undefined;
  return node.enableCompileCache(process.env.NODE_COMPILE_CACHE || COMPILE_CACHE_DIR).directory;
}

// The platform's index loads this module first, so every module each entry loads after it is cached.
enableCompileCache();
