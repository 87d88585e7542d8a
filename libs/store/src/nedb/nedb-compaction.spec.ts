import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCollection } from '../store.port';
import { NedbStore } from './nedb-store';

interface Item {
  _id: string;
  n: number;
}

const items = defineCollection<Item>('items');
const log = defineCollection<Item>('log');
/** Document lines of a data file (NeDB's index lines left out). */
const docLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l && !l.includes('$$indexCreated')).length;

describe('NeDB compaction only when the file is mostly stale', () => {
  let dir: string;
  let store: NedbStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nedb-compaction-'));
    store = new NedbStore({ dir, compactEveryMs: 60 * 60_000 });
    await store.open([items, log]);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves an append-only file alone however large, and rewrites one whose stale lines outnumber its documents', async () => {
    const rows = store.collection(items);
    await rows.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `i${i}`, n: 0 })));
    await store.collection(log).insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: `l${i}`, n: i })));
    for (let i = 0; i < 50; i++) await rows.updateOne({ _id: `i${i}` }, { $inc: { n: 1 } });

    expect(await store.compactWorthwhile()).toEqual([]);
    expect(docLines(join(dir, 'items.db'))).toBe(100);

    for (let i = 0; i < 1000; i++) await rows.updateOne({ _id: 'i0' }, { $inc: { n: 1 } });
    expect(await store.compactWorthwhile()).toEqual(['items']);
    expect(docLines(join(dir, 'items.db'))).toBe(50);
    expect(docLines(join(dir, 'log.db'))).toBe(3000);
    expect((await rows.findById('i0'))?.n).toBe(1001);
  });

  it('counts a removal as two stale lines and an upsert that inserts as none', async () => {
    const rows = store.collection(items);
    await rows.insertMany(Array.from({ length: 600 }, (_, i) => ({ _id: `i${i}`, n: i })));
    for (let i = 0; i < 400; i++) await rows.updateOne({ _id: `u${i}` }, { $set: { n: i } }, { upsert: true });
    expect(await store.compactWorthwhile()).toEqual([]);

    expect(await rows.deleteMany({ n: { $lt: 500 } })).toBe(900);
    expect(await store.compactWorthwhile()).toEqual(['items']);
    expect(docLines(join(dir, 'items.db'))).toBe(100);
  });
});
