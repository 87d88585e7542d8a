import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { runBundle, writeStartCache } from './bundle-runner';

// Each run here stands for a new process: V8's in-process cache of compiled scripts would
// answer the second compile of the same source itself, without looking at the code cache.
setFlagsFromString('--no-compilation-cache');

describe('runBundle', () => {
  let dir: string;
  const env = process.env.NODE_COMPILE_CACHE;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bundle-runner-'));
    process.env.NODE_COMPILE_CACHE = join(dir, 'cache');
    writeFileSync(join(dir, 'helper.js'), 'module.exports = (x) => x * 2;');
  });

  afterEach(() => {
    if (env === undefined) delete process.env.NODE_COMPILE_CACHE;
    else process.env.NODE_COMPILE_CACHE = env;
    rmSync(dir, { recursive: true, force: true });
  });

  /** A bundle, written as the bundler does inside the module's function, that exports what CommonJS gives it. */
  function writeBundle(name: string, extra = ''): string {
    const file = join(dir, name);
    writeFileSync(
      file,
      `(function (exports, require, module, __filename, __dirname) {${extra}
      const twice = require('./helper.js');
      module.exports = { twice: twice(21), file: __filename, dir: __dirname, path: require('node:path').sep, self: typeof exports };
      })`,
    );
    return file;
  }

  it('runs the bundle as a CommonJS module of its folder', () => {
    const file = writeBundle('main.bundle.js');
    expect(runBundle(file, { saveAfterMs: 60_000 }).exports).toEqual({ twice: 42, file, dir, path: '/', self: 'object' });
  });

  it('has no cache the first time, writes one, and the next start uses it', () => {
    const file = writeBundle('main.bundle.js');
    const first = runBundle(file, { saveAfterMs: 60_000 });
    expect(first.cache).toBe('absent');
    const saved = first.saveCache();
    expect(readdirSync(join(dir, 'cache', 'bundles'))).toEqual([saved.split('/').pop()]);

    const second = runBundle(file, { saveAfterMs: 60_000 });
    expect(second.cache).toBe('used');
    expect(second.exports).toMatchObject({ twice: 42 });
  });

  it('saves on its own after the delay, with V8\'s flags as before (the next start takes the cache, gc is not left exposed)', () => {
    jest.useFakeTimers();
    try {
      const file = writeBundle('main.bundle.js');
      runBundle(file, { saveAfterMs: 5_000 });
      jest.advanceTimersByTime(4_999);
      expect(readdirSync(dir)).not.toContain('cache');
      jest.advanceTimersByTime(1);
      expect(readdirSync(join(dir, 'cache', 'bundles'))).toHaveLength(1);
      expect(runInNewContext('typeof gc')).toBe('undefined');
      expect(runBundle(file, { saveAfterMs: 60_000 }).cache).toBe('used');
    } finally {
      jest.useRealTimers();
    }
  });

  it('reports a cache that does not fit as rejected and writes a good one over it', () => {
    const file = writeBundle('main.bundle.js');
    const saved = runBundle(file, { saveAfterMs: 60_000 }).saveCache();
    writeFileSync(saved, Buffer.from('not V8 code'));

    const again = runBundle(file, { saveAfterMs: 60_000 });
    expect(again.cache).toBe('rejected');
    expect(again.exports).toMatchObject({ twice: 42 });
    again.saveCache();
    expect(runBundle(file, { saveAfterMs: 60_000 }).cache).toBe('used');
  });

  it('takes the build\'s cache of the top level when it has none of its own, and writes its own later', () => {
    const file = writeBundle('main.bundle.js');
    expect(writeStartCache(file)).toBe(`${file}.code`);
    const first = runBundle(file, { saveAfterMs: 60_000 });
    expect(first.cache).toBe('start');
    expect(first.exports).toMatchObject({ twice: 42 });
    first.saveCache();
    expect(runBundle(file, { saveAfterMs: 60_000 }).cache).toBe('used');
  });

  it('compiles as before when the build\'s cache does not fit', () => {
    const file = writeBundle('main.bundle.js');
    writeFileSync(`${file}.code`, Buffer.from('not V8 code'));
    const run = runBundle(file, { saveAfterMs: 60_000 });
    expect(run.cache).toBe('rejected');
    expect(run.exports).toMatchObject({ twice: 42 });
  });

  it('gives a rebuilt bundle a cache of its own, which replaces the earlier build\'s and leaves other bundles\' alone', () => {
    const file = writeBundle('main.bundle.js');
    const other = runBundle(writeBundle('other.bundle.js'), { saveAfterMs: 60_000 }).saveCache();
    const old = runBundle(file, { saveAfterMs: 60_000 }).saveCache();
    writeBundle('main.bundle.js', '// rebuilt, one line longer');
    const rebuilt = runBundle(file, { saveAfterMs: 60_000 });
    expect(rebuilt.cache).toBe('absent');
    const saved = rebuilt.saveCache();
    expect(saved).not.toBe(old);
    expect(readdirSync(join(dir, 'cache', 'bundles')).sort()).toEqual([saved, other].map((f) => f.split('/').pop()).sort());
  });
});
