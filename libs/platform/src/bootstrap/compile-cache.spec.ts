import { COMPILE_CACHE_DIR, enableCompileCache } from './compile-cache';

describe('enableCompileCache', () => {
  const saved = process.env.NODE_COMPILE_CACHE;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_COMPILE_CACHE;
    else process.env.NODE_COMPILE_CACHE = saved;
  });

  it("does nothing on a Node without a compile cache (Node 20's module)", () => {
    expect(enableCompileCache({})).toBeUndefined();
  });

  it('enables it in the folder NODE_COMPILE_CACHE names, or in one under the temporary folder', () => {
    const asked: (string | undefined)[] = [];
    const node = { enableCompileCache: (directory?: string) => (asked.push(directory), { status: 1, directory }) };
    delete process.env.NODE_COMPILE_CACHE;
    expect(enableCompileCache(node)).toBe(COMPILE_CACHE_DIR);
    process.env.NODE_COMPILE_CACHE = '/var/cache/squad';
    expect(enableCompileCache(node)).toBe('/var/cache/squad');
    expect(asked).toEqual([COMPILE_CACHE_DIR, '/var/cache/squad']);
  });
});
