import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCollection } from '../store.port';
import { NedbStore, nedbIndexes } from './nedb-store';

interface Note {
  _id: string;
  recipient_id: string;
  is_read: boolean;
  n: number;
}

describe('NeDB indexes', () => {
  it('adds a plain index on the leading field of each compound index, leaves orderBy fields out, and builds each index once', () => {
    expect(
      nedbIndexes([
        { fields: { follower_id: 1, followee_id: 1 }, unique: true },
        { fields: { followee_id: 1 } },
        { fields: { user_id: 1, kind: 1 } },
        { fields: { user_id: 1 }, orderBy: { created_at: -1 } },
        { fields: { user_id: 1, kind: 1 }, orderBy: { rating: -1 } },
      ]),
    ).toEqual([
      { fieldName: ['follower_id', 'followee_id'], unique: true, sparse: false },
      { fieldName: 'followee_id', unique: false, sparse: false },
      { fieldName: ['user_id', 'kind'], unique: false, sparse: false },
      { fieldName: 'user_id', unique: false, sparse: false },
      { fieldName: 'follower_id', unique: false, sparse: false },
    ]);
  });

  it('drops an index the definitions no longer declare from a data file that remembers it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nedb-indexes-'));
    const indexNames = (store: NedbStore) =>
      Object.keys((store as unknown as { dbs: Map<string, { indexes: object }> }).dbs.get('notes')!.indexes).sort();
    try {
      const before = new NedbStore({ dir });
      await before.open([defineCollection<Note>('notes', [{ fields: { recipient_id: 1, n: -1 } }])]);
      await before.collection(defineCollection<Note>('notes')).insert({ recipient_id: 'r1', is_read: false, n: 1 });
      expect(indexNames(before)).toEqual(['_id', 'n,recipient_id', 'recipient_id']);
      await before.close();

      const now = defineCollection<Note>('notes', [{ fields: { recipient_id: 1 }, orderBy: { n: -1 } }]);
      for (let boot = 0; boot < 2; boot++) {
        const after = new NedbStore({ dir });
        await after.open([now]);
        expect(indexNames(after)).toEqual(['_id', 'recipient_id']);
        expect(await after.collection(now).count({ recipient_id: 'r1' })).toBe(1);
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers leading-field, compound and mixed queries exactly as a scan would', async () => {
    const store = new NedbStore();
    const def = defineCollection<Note>('notes', [{ fields: { recipient_id: 1, is_read: 1 } }]);
    await store.open([def]);
    const notes = store.collection(def);
    await notes.insertMany(Array.from({ length: 60 }, (_, n) => ({ recipient_id: `r${n % 3}`, is_read: n % 4 === 0, n })));
    const ns = (rows: Note[]) => rows.map((r) => r.n).sort((a, b) => a - b);
    const expected = (pred: (n: number) => boolean) => Array.from({ length: 60 }, (_, n) => n).filter(pred);
    expect(ns(await notes.find({ recipient_id: 'r1' }))).toEqual(expected((n) => n % 3 === 1));
    expect(ns(await notes.find({ recipient_id: { $in: ['r0', 'r2'] } }))).toEqual(expected((n) => n % 3 !== 1));
    expect(await notes.count({ recipient_id: 'r1', is_read: false })).toBe(expected((n) => n % 3 === 1 && n % 4 !== 0).length);
    expect(ns(await notes.find({ recipient_id: 'r2', is_read: true, n: { $gte: 20 } }))).toEqual(expected((n) => n % 3 === 2 && n % 4 === 0 && n >= 20));
    await store.close();
  });
});
