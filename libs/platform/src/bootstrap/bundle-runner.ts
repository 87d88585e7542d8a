import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { constants, runInNewContext, Script } from 'node:vm';
import { COMPILE_CACHE_DIR } from './compile-cache';
import { tuneHeap } from './process-heap';

/** By then a process has compiled what its boot runs: the code the cache keeps. */
const SAVE_AFTER_MS = 10_000;
/**
 * Saving holds the cache two or three times over for a moment (V8's serializer, its copy, Node's
 * Buffer: 8-11 MB more resident, measured): the stack's processes, started together, did it in the
 * same quarter second and the first start after a build peaked ~60 MB higher (issue 44). Each
 * waits a random part of this longer.
 */
const SAVE_SPREAD_MS = 20_000;

export interface BundleRun {
  /**
   * `used`: V8 took the cache; `start`: there was none, V8 took the build's cache of the bundle's
   * top level (writeStartCache); `rejected`: one was there but did not fit (another Node, other
   * flags); `absent`: none.
   */
  cache: 'used' | 'start' | 'rejected' | 'absent';
  /** Writes V8's code for everything compiled so far (atomically); returns the file. */
  saveCache(): string;
  /** What the bundle exported. */
  exports: unknown;
}

/**
 * Runs a deployable's bundle (infra/tools/bundle-entry-points.mjs) as CommonJS, with V8's code
 * cache: each process of the distributed stack spent most of its boot parsing and compiling
 * (issue 44). Unlike a cache taken when a script is compiled (Node 22's compile cache,
 * v8-compile-cache), this one is taken after the boot ran, so it holds the functions compiled
 * lazily too: nearly all of a bundle's. The first start, or one after the bundle, Node or V8's
 * flags changed, writes it 10-30 s later; a cache that cannot be read or written only
 * costs the speed-up. NODE_COMPILE_CACHE names the folder, as for Node's own cache.
 */
export function runBundle(file: string, options: { saveAfterMs?: number } = {}): BundleRun {
  // The runtime flags the service sets first: V8 refuses a cache made under other flags.
  tuneHeap();
  const cacheFile = cacheFileOf(file);
  const { script, cache } = compile(file, cacheFile);
  const saveCache = () => {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const partial = `${cacheFile}.${process.pid}`;
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile);
    dropOlderBuilds(cacheFile);
    return cacheFile;
  };
  if (cache !== 'used') {
    const timer = setTimeout(() => {
      try {
        saveCache();
      } catch {
        // a read-only folder: the next start compiles again
      }
      collectGarbage();
    }, options.saveAfterMs ?? SAVE_AFTER_MS + Math.random() * SAVE_SPREAD_MS);
    timer.unref();
  }
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { cache, saveCache, exports: module.exports };
}

/**
 * Saving leaves the cache's buffer (4-5 MB) and the serializer's garbage behind, which a process
 * idle then (a service the traffic does not reach) kept until its next collection: ~4 MB more
 * for as long as it stayed idle, 7 MB less with this (issue 44; the stack's peak during the save
 * is SAVE_SPREAD_MS's). The collection is exposed only for this call, as jest's leak detector
 * does, so V8's flags are as before.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  setFlagsFromString('--no-expose-gc');
}

/**
 * In a function of its own, so that no closure keeps the cache's buffer alive once V8 has read it.
 * The bundle is already the module's function (infra/tools/bundle-entry-points.mjs) and ASCII:
 * read as latin1, Node hands V8 the text as an external string, one copy outside the heap that V8
 * compiles as it is. Read before the cache, so that the file's buffer is gone when the cache's is read.
 */
function compile(file: string, cacheFile: string): { script: Script; cache: BundleRun['cache'] } {
  const source = readFileSync(file, 'latin1');
  const full = readIfThere(cacheFile);
  const cachedData = full ?? readIfThere(startCacheOf(file));
  const script = new Script(source, {
    filename: file,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return { script, cache: !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : full ? 'used' : 'start' };
}

/** The build's cache of a bundle's top level, beside it. */
const startCacheOf = (file: string) => `${file}.code`;

/**
 * Writes the cache of the bundle's top level beside it, at build time, under this process's V8
 * flags (run it with the children's NODE_OPTIONS). Compiling a bundle's top level parses all of
 * its 3-5 MB: V8's parser took ~23 MB of malloc'd memory at its peak, and in a service's one malloc
 * arena the blocks freed then stayed as ~10 MB of holes between live ones for the life of the
 * process. With this cache a first start compiles only the functions its boot runs, one at a time.
 */
export function writeStartCache(file: string): string {
  tuneHeap();
  const script = new Script(readFileSync(file, 'latin1'), { filename: file });
  writeFileSync(startCacheOf(file), script.createCachedData());
  return startCacheOf(file);
}

/** `<bundle, Node, architecture>-<build>.code`: a new build (size or time) gets a new file, which replaces its predecessors when saved. */
function cacheFileOf(file: string): string {
  const { size, mtimeMs } = statSync(file);
  const hash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 16);
  return join(process.env.NODE_COMPILE_CACHE || COMPILE_CACHE_DIR, 'bundles', `${hash(`${file} ${process.version} ${process.arch}`)}-${hash(`${size} ${mtimeMs}`)}.code`);
}

/** Removes the caches of the bundle's earlier builds. */
function dropOlderBuilds(cacheFile: string): void {
  const prefix = basename(cacheFile).split('-')[0];
  for (const name of readdirSync(dirname(cacheFile))) {
    if (name.startsWith(`${prefix}-`) && name !== basename(cacheFile)) rmSync(join(dirname(cacheFile), name), { force: true });
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

// `node bundle-runner.js --start-cache <bundle>...`: the build's step (infra/tools/bundle-entry-points.mjs).
if (require.main === module && process.argv[2] === '--start-cache') process.argv.slice(3).forEach(writeStartCache);
