import type { Logger } from 'pino';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCollection, SqliteStore } from '@app/store';
import { CounterRepairPass, CountersFixed, fixCounters, runCounterRepair, tally } from './counter-repair';

interface PostDoc {
  _id: string;
  likes?: number;
  comments: number;
}

const posts = defineCollection<PostDoc>('posts');

function fakeLogger() {
  const lines: { level: string; obj: unknown; msg?: string }[] = [];
  const at = (level: string) => (obj: unknown, msg?: string) =>
    lines.push(typeof obj === 'string' ? { level, obj: {}, msg: obj } : { level, obj, msg });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger, lines };
}

describe('counter repair helpers', () => {
  it('tally counts rows per key, or adds a weight, and skips rows without a key', () => {
    const rows = [{ k: 'a', w: 4 }, { k: 'b', w: 2 }, { k: 'a', w: 5 }, { k: null, w: 3 }];
    expect(tally(rows, (r) => r.k)).toEqual(new Map([['a', 2], ['b', 1]]));
    expect(tally(rows, (r) => r.k, (r) => r.w)).toEqual(new Map([['a', 9], ['b', 2]]));
  });

  describe('fixCounters', () => {
    let store: SqliteStore;

    beforeEach(async () => {
      store = new SqliteStore();
      await store.open([posts]);
    });

    afterEach(() => store.close());

    it('fixes only the documents that differ; an absent counter reads as 0', async () => {
      const col = store.collection(posts);
      await col.insertMany([
        { _id: 'right', likes: 2, comments: 1 },
        { _id: 'absent-zero', comments: 0 },
        { _id: 'absent-wrong', comments: 0 },
        { _id: 'one-wrong', likes: 5, comments: 3 },
        { _id: 'negative', likes: -1, comments: 0 },
      ]);
      const want: Record<string, { likes: number; comments: number }> = {
        right: { likes: 2, comments: 1 },
        'absent-zero': { likes: 0, comments: 0 },
        'absent-wrong': { likes: 4, comments: 0 },
        'one-wrong': { likes: 5, comments: 0 },
        negative: { likes: 0, comments: 0 },
      };
      const docs = await col.find({});
      expect(await fixCounters(col, docs, ['likes', 'comments'], (d, f) => want[d._id][f])).toBe(3);
      const after = Object.fromEntries((await col.find({})).map((d) => [d._id, { likes: d.likes, comments: d.comments }]));
      expect(after).toEqual({
        right: { likes: 2, comments: 1 },
        'absent-zero': { likes: undefined, comments: 0 },
        'absent-wrong': { likes: 4, comments: 0 },
        'one-wrong': { likes: 5, comments: 0 },
        negative: { likes: 0, comments: 0 },
      });
    });

    it('leaves a counter alone when another write moved it after it was read', async () => {
      const col = store.collection(posts);
      await col.insert({ _id: 'p', likes: 1, comments: 0 });
      const docs = await col.find({});
      await col.updateOne({ _id: 'p' }, { $inc: { likes: 1 } });
      expect(await fixCounters(col, docs, ['likes'], () => 7)).toBe(0);
      expect((await col.findById('p'))?.likes).toBe(2);
    });
  });

  describe('runCounterRepair', () => {
    it('logs one warn line with the numbers when something was fixed', async () => {
      const { logger, lines } = fakeLogger();
      expect(await runCounterRepair({ COUNTER_REPAIR: 'on' }, logger, async () => ({ 'a.x': 2, 'b.y': 1 }))).toEqual({ 'a.x': 2, 'b.y': 1 });
      expect(lines).toHaveLength(1);
      expect(lines[0].level).toBe('warn');
      expect(lines[0].obj).toMatchObject({ counterRepair: { total: 3, fixed: { 'a.x': 2, 'b.y': 1 } } });
      expect(lines[0].msg).toContain('fixed 3 document(s)');
    });

    it('logs one info line when every counter was right', async () => {
      const { logger, lines } = fakeLogger();
      await runCounterRepair({ COUNTER_REPAIR: 'on' }, logger, async () => ({ 'a.x': 0 }));
      expect(lines.map((l) => l.level)).toEqual(['info']);
      expect(lines[0].obj).toMatchObject({ counterRepair: { total: 0 } });
    });

    it('does not run with COUNTER_REPAIR=off', async () => {
      const { logger, lines } = fakeLogger();
      const repair = jest.fn(async () => ({}));
      expect(await runCounterRepair({ COUNTER_REPAIR: 'off' }, logger, repair)).toBeNull();
      expect(repair).not.toHaveBeenCalled();
      expect(lines[0].msg).toContain('COUNTER_REPAIR=off');
    });

    it('logs a failure as an error instead of stopping the boot', async () => {
      const { logger, lines } = fakeLogger();
      await expect(runCounterRepair({ COUNTER_REPAIR: 'on' }, logger, () => Promise.reject(new Error('disk gone')))).resolves.toBeNull();
      expect(lines.map((l) => l.level)).toEqual(['error']);
      expect(lines[0].msg).toContain('disk gone');
    });
  });

  describe('CounterRepairPass at boot', () => {
    class Pass extends CounterRepairPass {
      runs = 0;
      constructor(store: SqliteStore, logger: Logger) {
        super({ COUNTER_REPAIR: 'on' }, logger, store);
      }
      async repair(): Promise<CountersFixed> {
        this.runs++;
        return { 'posts.likes': 0 };
      }
    }
    let dir: string;

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'counter-repair-'));
    });

    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** Opens the file, runs the boot pass, and closes the store cleanly unless `crash`. */
    const boot = async (file: string, crash = false) => {
      const store = new SqliteStore({ file });
      await store.open([posts]);
      const pass = new Pass(store, fakeLogger().logger);
      await pass.onApplicationBootstrap();
      await store.collection(posts).insert({ _id: `p${Date.now()}${Math.random()}`, comments: 0 });
      if (crash) {
        // A process that died with the file open leaves its write-ahead log: a copy taken now is that folder.
        copyFileSync(file, `${file}.crashed`);
        copyFileSync(`${file}-wal`, `${file}.crashed-wal`);
      }
      await store.close();
      return pass.runs;
    };

    it('repairs on a folder never repaired, skips after a clean close, repairs again after a crash', async () => {
      const file = join(dir, 'svc.sqlite');
      expect(await boot(file)).toBe(1); // new data: repaired once
      expect(await boot(file, true)).toBe(0); // closed cleanly before: nothing can be wrong
      expect(await boot(`${file}.crashed`)).toBe(1); // the log left by the crash: repaired
      expect(await boot(`${file}.crashed`)).toBe(0);
    });

    it('always repairs in memory, where the store cannot tell', async () => {
      const store = new SqliteStore();
      await store.open([posts]);
      const pass = new Pass(store, fakeLogger().logger);
      await pass.onApplicationBootstrap();
      await pass.onApplicationBootstrap();
      expect(pass.runs).toBe(2);
      await store.close();
    });
  });
});
