import { defineCollection } from '../store.port';
import { NedbStore, nedbIndexes } from './nedb-store';

interface Note {
  _id: string;
  recipient_id: string;
  is_read: boolean;
  n: number;
}

describe('NeDB indexes', () => {
  it('adds a plain index on the leading field of each compound index, once', () => {
    expect(
      nedbIndexes([
        { fields: { follower_id: 1, followee_id: 1 }, unique: true },
        { fields: { followee_id: 1 } },
        { fields: { user_id: 1, created_at: -1 } },
        { fields: { user_id: 1, rating: -1 } },
      ]),
    ).toEqual([
      { fieldName: ['follower_id', 'followee_id'], unique: true, sparse: false },
      { fieldName: 'followee_id', unique: false, sparse: false },
      { fieldName: ['user_id', 'created_at'], unique: false, sparse: false },
      { fieldName: ['user_id', 'rating'], unique: false, sparse: false },
      { fieldName: 'follower_id', unique: false, sparse: false },
      { fieldName: 'user_id', unique: false, sparse: false },
    ]);
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
