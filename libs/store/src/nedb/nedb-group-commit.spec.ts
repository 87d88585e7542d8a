import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCollection } from '../store.port';
import { AppendQueue, NedbStore } from './nedb-store';

interface Counter {
  _id: string;
  n: number;
}

const def = defineCollection<Counter>('counters', [{ fields: { n: 1 }, unique: true }]);
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('NeDB group commit', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nedb-group-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('coalesces appends queued while one is in flight, in order, each caller settled after its own lines', async () => {
    const file = join(dir, 'q.db');
    const queue = new AppendQueue(file, 0o644);
    const settled: string[] = [];
    const writes = ['a', 'b', 'c', 'd'].map((x) =>
      queue.append(`${JSON.stringify({ x })}\n`).then(() => {
        settled.push(x);
        expect(lines(file).map((l) => l.x)).toContain(x);
      }),
    );
    await Promise.all(writes);
    await queue.idle();
    expect(lines(file).map((l) => l.x)).toEqual(['a', 'b', 'c', 'd']);
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rejects every caller of a failed append', async () => {
    const queue = new AppendQueue(join(dir, 'missing', 'q.db'), 0o644);
    await expect(Promise.all([queue.append('1\n'), queue.append('2\n')])).rejects.toThrow(/ENOENT/);
    await queue.idle();
  });

  it('keeps every concurrent write, update and removal across a reopen and a compaction', async () => {
    const store = new NedbStore({ dir });
    await store.open([def]);
    const counters = store.collection(def);
    await Promise.all(Array.from({ length: 200 }, (_, n) => counters.insert({ _id: `c${n}`, n })));
    await Promise.all([
      ...Array.from({ length: 50 }, (_, n) => counters.updateOne({ _id: `c${n}` }, { $set: { n: 1000 + n } })),
      ...Array.from({ length: 50 }, (_, n) => counters.deleteOne({ _id: `c${150 + n}` })),
      counters.updateOne({ _id: 'new' }, { $set: { n: 5000 } }, { upsert: true }),
    ]);
    await expect(counters.insert({ _id: 'dup', n: 60 })).rejects.toThrow();
    // Nothing is left queued: the file alone holds the final state.
    const reopened = new NedbStore({ dir });
    await reopened.open([def]);
    const again = reopened.collection(def);
    expect(await again.count({})).toBe(151);
    expect((await again.findById('c10'))?.n).toBe(1010);
    expect(await again.findById('c160')).toBeNull();
    expect((await again.findById('new'))?.n).toBe(5000);
    await reopened.close();
    await store.close(); // compacts: the file is rewritten with the same state
    expect(lines(join(dir, 'counters.db')).filter((l) => l._id).length).toBe(151);
  });
});
