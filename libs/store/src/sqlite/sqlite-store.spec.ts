import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DuplicateKeyError } from '../store.errors';
import { CollectionDef, defineCollection } from '../store.port';
import { SqliteStore } from './sqlite-store';
import { textTableOf } from './sqlite-text';

interface Note {
  _id: string;
  recipient_id: string;
  is_read: boolean;
  n: number;
  tags?: string[];
}

const Notes = defineCollection<Note>('notes', [{ fields: { recipient_id: 1, is_read: 1 }, orderBy: { n: -1 } }]);

/**
 * What lies between two processes: another process's write is read from the next event-loop turn
 * on (a store looks at data_version once a turn; two stores in one test share the turn).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Counts the store's reads that reach SQLite from now on (an answer from a cache reads nothing). */
function countReads(store: SqliteStore): () => number {
  let reads = 0;
  const read = store.read.bind(store);
  store.read = (collection, work) => (reads++, read(collection, work));
  return () => reads;
}

/** Counts the store's commits from now on. */
function countCommits(store: SqliteStore): () => number {
  let commits = 0;
  const writer = (store as unknown as { writer: BetterSqlite3.Database }).writer;
  const exec = writer.exec.bind(writer);
  writer.exec = (sql: string) => {
    if (/^\s*COMMIT\b/i.test(sql)) commits++;
    return exec(sql);
  };
  return () => commits;
}

/** A promise and the function that settles it: lets a test hold a transaction open. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  return { opened: new Promise<void>((resolve) => (open = resolve)), open };
}

describe('SqliteStore', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'))));

  /** Two stores on one file of `dir`, as two processes (replicas) open it. */
  async function twoStoresOn(name: string, def: CollectionDef<Note>): Promise<[SqliteStore, SqliteStore]> {
    const file = join(dir, name);
    const stores: [SqliteStore, SqliteStore] = [new SqliteStore({ file }), new SqliteStore({ file })];
    for (const store of stores) await store.open([def]);
    return stores;
  }
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fills a newly declared text index from the rows already there, and rebuilds it when the fields change', async () => {
    const file = join(dir, 'svc.sqlite');
    interface Page { _id: string; title: string; body: string }
    const plain = new SqliteStore({ file });
    await plain.open([defineCollection<Page>('pages')]);
    await plain.collection(defineCollection<Page>('pages')).insert({ title: 'Çaydanlık', body: 'demlik' });
    await plain.close();

    const byTitle = defineCollection<Page>('pages', [], { text: ['title'] });
    const titled = new SqliteStore({ file });
    await titled.open([byTitle]);
    expect((await titled.collection(byTitle).search('caydanlik', {})).map((p) => p.title)).toEqual(['Çaydanlık']);
    expect(await titled.collection(byTitle).search('demlik', {})).toEqual([]);
    await titled.close();

    const byBoth = defineCollection<Page>('pages', [], { text: ['title', 'body'] });
    const both = new SqliteStore({ file });
    await both.open([byBoth]);
    expect((await both.collection(byBoth).search('demlik', {})).map((p) => p.title)).toEqual(['Çaydanlık']);
    const tables = new BetterSqlite3(file, { readonly: true }).prepare(`SELECT count(*) FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'`).pluck().get();
    expect(tables).toBe(1);
    await both.close();
  });

  it('re-indexes the text of a row only when an indexed field changes', async () => {
    const file = join(dir, 'svc.sqlite');
    interface Post { _id: string; title: string; likes: number }
    const Posts = defineCollection<Post>('posts', [], { text: ['title'] });
    const store = new SqliteStore({ file });
    await store.open([Posts]);
    const posts = store.collection(Posts);
    const post = await posts.insert({ title: 'Kettle review', likes: 0 });
    const db = new BetterSqlite3(file, { readonly: true });
    const segments = () => db.prepare(`SELECT group_concat(id || ':' || length(block)) FROM (SELECT * FROM "${textTableOf('posts', ['title'])}_data" ORDER BY id)`).pluck().get();
    const before = segments();
    await posts.updateOne({ _id: post._id }, { $inc: { likes: 1 } });
    expect(segments()).toBe(before);
    expect((await posts.search('kettle', {})).map((p) => p.likes)).toEqual([1]);
    await posts.updateOne({ _id: post._id }, { $set: { title: 'Teapot review' } });
    expect(segments()).not.toBe(before);
    expect((await posts.search('teapot', {})).map((p) => p.title)).toEqual(['Teapot review']);
    expect(await posts.search('kettle', {})).toEqual([]);
    db.close();
    await store.close();
  });

  it('builds one expression index per declaration, reads a page through it, and drops an index no longer declared', async () => {
    const file = join(dir, 'svc.sqlite');
    const store = new SqliteStore({ file });
    await store.open([Notes]);
    const notes = store.collection(Notes);
    await notes.insertMany(Array.from({ length: 40 }, (_, n) => ({ recipient_id: `r${n % 2}`, is_read: n % 4 === 0, n })));
    expect((await notes.find({ recipient_id: 'r0', is_read: false }, { sort: { n: -1 }, limit: 3 })).map((d) => d.n)).toEqual([38, 34, 30]);
    const plan = new BetterSqlite3(file, { readonly: true })
      .prepare(
        `EXPLAIN QUERY PLAN SELECT doc FROM notes WHERE json_extract(doc, '$."recipient_id"') = 'r0' ORDER BY json_extract(doc, '$."is_read"'), json_extract(doc, '$."n"') DESC`,
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX ix_notes_/);
    await store.close();

    const reopened = new SqliteStore({ file });
    await reopened.open([defineCollection<Note>('notes', [{ fields: { n: 1 } }])]);
    await reopened.close();
    const indexes = new BetterSqlite3(file, { readonly: true })
      .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'notes' AND name LIKE 'ix_%'`)
      .pluck()
      .all();
    expect(indexes).toEqual([expect.stringContaining(`json_extract(doc, '$."n"') ASC`)]);
  });

  it("counts a boolean match from the index alone: the key fields' JSON types are in it", async () => {
    const file = join(dir, 'svc.sqlite');
    const store = new SqliteStore({ file });
    await store.open([Notes]);
    await store.collection(Notes).insertMany([{ recipient_id: 'r', is_read: false, n: 1 }, { recipient_id: 'r', is_read: true, n: 2 }]);
    expect(await store.collection(Notes).count({ recipient_id: 'r', is_read: false })).toBe(1);
    await store.close();
    const plan = new BetterSqlite3(file, { readonly: true })
      .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM notes WHERE json_extract(doc, '$."recipient_id"') = 'r' AND json_extract(doc, '$."is_read"') = 0 AND json_type(doc, '$."is_read"') = 'false'`)
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING COVERING INDEX ix_notes_/);
  });

  it('matches a field that holds arrays element by element, and booleans apart from numbers', async () => {
    const store = new SqliteStore();
    await store.open([Notes]);
    const notes = store.collection(Notes);
    await notes.insertMany([
      { recipient_id: 'a', is_read: true, n: 1, tags: ['x', 'y'] },
      { recipient_id: 'b', is_read: false, n: 1, tags: ['y'] },
    ]);
    await store.collection(defineCollection<{ _id: string; is_read: number }>('notes')).insert({ is_read: 1 });
    expect((await notes.find({ tags: 'x' })).map((d) => d.recipient_id)).toEqual(['a']);
    expect(await notes.count({ tags: { $in: ['y'] } })).toBe(2);
    expect(await notes.count({ tags: { $ne: 'x' } })).toBe(2);
    expect(await notes.count({ is_read: true })).toBe(1);
    expect(await notes.count({ is_read: { $ne: true } })).toBe(2);
    await store.close();
  });

  it('replicas on one file see one data set: writes from both, $inc exact, array fields learned from the other', async () => {
    const [one, two] = await twoStoresOn('shared.sqlite', Notes);
    const { _id } = await one.collection(Notes).insert({ recipient_id: 'r', is_read: false, n: 0 });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).collection(Notes).updateOne({ _id }, { $inc: { n: 1 } })),
    );
    expect((await two.collection(Notes).findById(_id))?.n).toBe(50);
    await two.collection(Notes).insert({ recipient_id: 'r', is_read: false, n: 0, tags: ['t'] });
    await nextTurn();
    expect(await one.collection(Notes).count({ tags: 't' })).toBe(1);
    await one.close();
    await two.close();
  });

  it('commits transactions queued behind each other once (group commit); one that fails rolls back alone; none is told before the commit', async () => {
    const [store, other] = await twoStoresOn('group.sqlite', Notes);
    const notes = store.collection(Notes);
    const commits = countCommits(store);
    const seenByOther: boolean[] = [];
    const transactions = Array.from({ length: 5 }, (_, n) =>
      store
        .transaction(async () => {
          await notes.insert({ _id: `n${n}`, recipient_id: 'r', is_read: false, n });
          await nextTurn();
          if (n === 2) throw new Error('refused');
          return n;
        })
        .then(async (done) => {
          seenByOther[done] = Boolean(await other.collection(Notes).findById(`n${done}`));
          return done;
        }),
    );
    const outcomes = await Promise.allSettled(transactions);

    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([0, 1, 'refused', 3, 4]);
    expect(commits()).toBe(1);
    expect(seenByOther).toEqual([true, true, undefined, true, true]);
    expect((await notes.find({}, { sort: { n: 1 } })).map((d) => d.n)).toEqual([0, 1, 3, 4]);
    // Alone, a transaction commits at once.
    await store.transaction(() => notes.insert({ _id: 'n5', recipient_id: 'r', is_read: false, n: 5 }));
    expect(commits()).toBe(2);
    expect(await other.collection(Notes).findById('n5')).not.toBeNull();
    await store.close();
    await other.close();
  });

  it('keeps a write from outside waiting until the group its transactions share commits', async () => {
    const store = new SqliteStore({ file: join(dir, 'outside.sqlite') });
    await store.open([Notes]);
    const notes = store.collection(Notes);
    const order: string[] = [];
    const first = store.transaction(async () => {
      await notes.insert({ _id: 'a', recipient_id: 'r', is_read: false, n: 1 });
      await nextTurn();
      order.push('first done');
    });
    const second = store.transaction(async () => {
      await nextTurn();
      await notes.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
      order.push('second done');
    });
    await nextTurn();
    const outside = notes.updateOne({ _id: 'a' }, { $inc: { n: 10 } }).then(() => order.push('outside'));
    await Promise.all([first, second, outside]);
    expect(order).toEqual(['first done', 'second done', 'outside']);
    expect((await notes.findById('a'))?.n).toBe(12);
    await store.close();
  });

  describe.each([
    ['file', (d: string) => join(d, 'tx.sqlite')],
    [':memory:', () => ':memory:'],
  ])('transaction (%s)', (_label, fileOf) => {
    let store: SqliteStore;
    beforeEach(async () => {
      store = new SqliteStore({ file: fileOf(dir) });
      await store.open([Notes]);
    });
    afterEach(() => store.close());

    it('commits every operation of its function together', async () => {
      const notes = store.collection(Notes);
      await store.transaction(async () => {
        await notes.insert({ recipient_id: 'r', is_read: false, n: 1 });
        await notes.updateOne({ recipient_id: 'r' }, { $inc: { n: 1 } });
      });
      expect((await notes.findOne({ recipient_id: 'r' }))?.n).toBe(2);
    });

    it('rolls every operation back when its function throws', async () => {
      const notes = store.collection(Notes);
      const other = store.collection(defineCollection<{ _id: string; note: string }>('other'));
      await expect(
        store.transaction(async () => {
          await notes.insert({ recipient_id: 'r', is_read: false, n: 1 });
          await other.insert({ note: 'with it' });
          throw new Error('change failed');
        }),
      ).rejects.toThrow('change failed');
      expect(await notes.count({})).toBe(0);
      expect(await other.count({})).toBe(0);
    });

    it('rolls back a duplicate key inside it and reports it', async () => {
      const Unique = defineCollection<{ _id: string; k: string }>('uniq', [{ fields: { k: 1 }, unique: true }]);
      await store.open([Unique]);
      const rows = store.collection(Unique);
      await rows.insert({ k: 'a' });
      await expect(
        store.transaction(async () => {
          await rows.insert({ k: 'b' });
          await rows.insert({ k: 'a' });
        }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await rows.count({})).toBe(1);
    });

    it('hides its rows from concurrent requests until it commits, and loses none of their writes', async () => {
      const notes = store.collection(Notes);
      const { _id } = await notes.insert({ recipient_id: 'counter', is_read: false, n: 0 });
      const hold = gate();
      const started = gate();
      const tx = store.transaction(async () => {
        await notes.insert({ recipient_id: 'inside', is_read: false, n: 1 });
        await notes.updateOne({ _id }, { $inc: { n: 1 } });
        expect(await notes.count({ recipient_id: 'inside' })).toBe(1); // its own rows are visible to it
        started.open();
        await hold.opened;
      });
      await started.opened;
      // A concurrent request: its read must not see the open transaction, its write must wait, not vanish.
      const seen = notes.count({ recipient_id: 'inside' });
      const written = notes.updateOne({ _id }, { $inc: { n: 10 } });
      const outside = notes.insert({ recipient_id: 'outside', is_read: false, n: 2 });
      if (store.file) expect(await seen).toBe(0);
      hold.open();
      await tx;
      if (!store.file) expect(await seen).toBe(1); // in memory a read waits for the commit instead
      await Promise.all([written, outside]);
      expect((await notes.findById(_id))?.n).toBe(11);
      expect(await notes.count({ recipient_id: { $in: ['inside', 'outside'] } })).toBe(2);
    });

    it('runs transactions one after another and a nested one inside its parent', async () => {
      const notes = store.collection(Notes);
      const order: string[] = [];
      await Promise.all(
        ['a', 'b', 'c'].map((name) =>
          store.transaction(async () => {
            order.push(`${name}+`);
            await store.transaction(() => notes.insert({ recipient_id: name, is_read: false, n: 0 }));
            await new Promise((resolve) => setImmediate(resolve));
            order.push(`${name}-`);
          }),
        ),
      );
      expect(order).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
      expect(await notes.count({})).toBe(3);
    });
  });

  describe('a collection read by id through its document cache (cacheById)', () => {
    const Cached = defineCollection<Note>('cached_notes', [], { cacheById: 3 });

    it('answers a read by id after a write with the written document, whoever wrote it', async () => {
      const [one, two] = await twoStoresOn('cached.sqlite', Cached);
      const notes = one.collection(Cached);
      const { _id } = await notes.insert({ recipient_id: 'r', is_read: false, n: 0 });
      expect((await notes.findById(_id))?.n).toBe(0);
      await notes.updateOne({ _id }, { $inc: { n: 1 } });
      expect((await notes.findById(_id))?.n).toBe(1);
      // Another process on the same file (a replica): its commit empties this one's cache.
      await two.collection(Cached).updateOne({ _id }, { $inc: { n: 10 } });
      await nextTurn();
      expect((await notes.find({ _id: { $in: [_id] } })).map((d) => d.n)).toEqual([11]);
      await two.collection(Cached).deleteMany({ recipient_id: 'r' });
      await nextTurn();
      expect(await notes.findById(_id)).toBeNull();
      await one.close();
      await two.close();
    });

    it('gives documents in id order, each once, and keeps at most its capacity', async () => {
      const store = new SqliteStore();
      await store.open([Cached]);
      const notes = store.collection(Cached);
      const ids = (await notes.insertMany(Array.from({ length: 5 }, (_, n) => ({ _id: `id${n}`, recipient_id: 'r', is_read: false, n })))).map((d) => d._id);
      expect((await notes.find({ _id: { $in: [ids[3], ids[1], ids[3], 'missing'] } })).map((d) => d._id)).toEqual([ids[1], ids[3]]);
      await notes.insert({ _id: 'missing', recipient_id: 'r', is_read: true, n: 9 });
      expect((await notes.findById('missing'))?.n).toBe(9); // known absent until written
      expect((await notes.find({ _id: { $in: ids } })).map((d) => d.n)).toEqual([0, 1, 2, 3, 4]);
      await store.collection(defineCollection<Note>('cached_notes')).updateOne({ _id: ids[0] }, { $set: { n: 100 } });
      expect((await notes.find({ _id: { $in: ids } })).map((d) => d.n)).toEqual([100, 1, 2, 3, 4]);
      await store.close();
    });

    it('keeps no document a transaction wrote before it commits, nor after it rolls back', async () => {
      const store = new SqliteStore({ file: join(dir, 'tx-cached.sqlite') });
      await store.open([Cached]);
      const notes = store.collection(Cached);
      const { _id } = await notes.insert({ recipient_id: 'r', is_read: false, n: 0 });
      const hold = gate();
      const started = gate();
      const tx = store.transaction(async () => {
        await notes.updateOne({ _id }, { $set: { n: 1 } });
        expect((await notes.findById(_id))?.n).toBe(1); // its own write, read inside it
        started.open();
        await hold.opened;
      });
      await started.opened;
      expect((await notes.findById(_id))?.n).toBe(0); // the committed document, read beside it
      hold.open();
      await tx;
      expect((await notes.findById(_id))?.n).toBe(1);
      await expect(
        store.transaction(async () => {
          await notes.updateOne({ _id }, { $set: { n: 2 } });
          expect((await notes.findById(_id))?.n).toBe(2);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect((await notes.findById(_id))?.n).toBe(1);
      await store.close();
    });

    it('fills the cache from a transaction that has not written to the collection, and not once it has', async () => {
      const store = new SqliteStore({ file: join(dir, 'tx-fill.sqlite') });
      await store.open([Cached]);
      const notes = store.collection(Cached);
      const { _id } = await notes.insert({ recipient_id: 'r', is_read: false, n: 0 });
      const sql = countReads(store);
      await store.transaction(async () => {
        expect((await notes.findById(_id))?.n).toBe(0); // committed: kept
        await notes.updateOne({ _id }, { $set: { n: 1 } });
        expect((await notes.findById(_id))?.n).toBe(1); // its own write: read, not kept
        expect((await notes.findById(_id))?.n).toBe(1);
        throw new Error('undo');
      }).catch(() => undefined);
      expect(sql()).toBe(3);
      expect((await notes.findById(_id))?.n).toBe(0); // the rollback left nothing behind
      expect((await notes.findById(_id))?.n).toBe(0);
      expect(sql()).toBe(4);
      await store.close();
    });

    it('keeps counts by filter until any write to the collection, here or by another process', async () => {
      const Counted = defineCollection<Note>('counted_notes', [], { cacheCounts: 10 });
      const [one, two] = await twoStoresOn('counted.sqlite', Counted);
      const notes = one.collection(Counted);
      await notes.insertMany([{ recipient_id: 'r', is_read: false, n: 1 }, { recipient_id: 'r', is_read: true, n: 2 }]);
      const sql = countReads(one);
      const unread = () => notes.count({ recipient_id: 'r', is_read: false });
      expect([await unread(), await unread(), sql()]).toEqual([1, 1, 1]);
      await notes.updateMany({ recipient_id: 'r' }, { $set: { is_read: false } }); // any write: counted again
      expect([await unread(), await unread(), sql()]).toEqual([2, 2, 2]);
      await two.collection(Counted).insert({ recipient_id: 'r', is_read: false, n: 3 });
      await nextTurn();
      expect([await unread(), sql()]).toEqual([3, 3]);
      // Inside a transaction that wrote to it: counted, not kept (it may roll back).
      await one.transaction(async () => {
        await notes.insert({ recipient_id: 'r', is_read: false, n: 4 });
        expect(await unread()).toBe(4);
        throw new Error('undo');
      }).catch(() => undefined);
      expect([await unread(), sql()]).toEqual([3, 5]);
      // A filter with anything but plain values is never kept.
      expect([await notes.count({ recipient_id: { $regex: /^r$/ } }), await notes.count({ recipient_id: { $regex: /^r$/ } }), sql()]).toEqual([3, 3, 7]);
      await one.close();
      await two.close();
    });

    it('answers a lookup by a unique field from the cache, and only with the document that holds the value now', async () => {
      const Keyed = defineCollection<Note>('keyed_notes', [{ fields: { recipient_id: 1 }, unique: true }], { cacheById: 10 });
      const [one, two] = await twoStoresOn('keyed.sqlite', Keyed);
      const notes = one.collection(Keyed);
      const { _id } = await notes.insert({ recipient_id: 'ann', is_read: false, n: 0 });
      const first = await notes.findOne({ recipient_id: 'ann' });
      expect(first?._id).toBe(_id);
      expect(Object.isFrozen(first)).toBe(true); // the cached copy, as a read by id gives it
      // Renamed here: the old value finds nobody, the new one the same document.
      await notes.updateOne({ _id }, { $set: { recipient_id: 'bea' } });
      expect(await notes.findOne({ recipient_id: 'ann' })).toBeNull();
      expect((await notes.findOne({ recipient_id: 'bea' }))?._id).toBe(_id);
      // The value passes to another document written by another process: the cache is not believed.
      await two.collection(Keyed).updateOne({ _id }, { $set: { recipient_id: 'cem' } });
      const { _id: other } = await two.collection(Keyed).insert({ recipient_id: 'bea', is_read: true, n: 1 });
      await nextTurn();
      expect((await notes.findOne({ recipient_id: 'bea' }))?._id).toBe(other);
      expect((await notes.find({ recipient_id: 'cem' })).map((d) => d._id)).toEqual([_id]);
      // Anything more than the one field takes the query as before.
      expect(await notes.find({ recipient_id: 'cem', is_read: true })).toEqual([]);
      await one.close();
      await two.close();
    });

    it('answers lookups by a compound unique key from the cache, absent ones too, until a write here or elsewhere', async () => {
      const Marks = defineCollection<Note>('marks', [{ fields: { recipient_id: 1, n: 1 }, unique: true }], { cacheById: 10 });
      const [one, two] = await twoStoresOn('marks.sqlite', Marks);
      const marks = one.collection(Marks);
      const { _id } = await marks.insert({ recipient_id: 'ann', is_read: false, n: 1 });
      const sql = countReads(one);
      const page = () => marks.find({ recipient_id: 'ann', n: { $in: [1, 2, 3] } });
      expect((await page()).map((d) => d.n)).toEqual([1]);
      expect((await page()).map((d) => d.n)).toEqual([1]);
      expect(await marks.findOne({ n: 2, recipient_id: 'ann' })).toBeNull(); // known absent, any field order
      expect(sql()).toBe(1);
      // A document written here with an absent key's values is found at once.
      await marks.insert({ recipient_id: 'ann', is_read: false, n: 2 });
      await marks.updateOne({ _id }, { $set: { n: 3 } });
      expect((await page()).map((d) => d.n).sort()).toEqual([2, 3]);
      expect(await marks.findOne({ recipient_id: 'ann', n: 1 })).toBeNull();
      // Another process's write empties the cache.
      await two.collection(Marks).insert({ recipient_id: 'ann', is_read: true, n: 1 });
      await nextTurn();
      expect((await page()).map((d) => d.n).sort()).toEqual([1, 2, 3]);
      // A key the filter does not pin whole, or pins with anything more, takes the query.
      const before = sql();
      await marks.find({ recipient_id: 'ann' });
      await marks.find({ recipient_id: 'ann', n: 1, is_read: true });
      expect(sql()).toBe(before + 2);
      await one.close();
      await two.close();
    });

    it('keeps no absent key across a document that holds a list in a key field', async () => {
      const Tagged = defineCollection<Note>('tagged_marks', [{ fields: { tags: 1 }, unique: true }], { cacheById: 10 });
      const store = new SqliteStore();
      await store.open([Tagged]);
      const tagged = store.collection(Tagged);
      expect(await tagged.findOne({ tags: 'x' })).toBeNull();
      await tagged.insert({ recipient_id: 'ann', is_read: false, n: 9, tags: ['w', 'x'] });
      expect((await tagged.findOne({ tags: 'x' }))?.n).toBe(9);
      expect(await tagged.findOne({ tags: 'y' })).toBeNull();
      await tagged.updateOne({ n: 9 }, { $push: { tags: 'y' } });
      expect((await tagged.findOne({ tags: 'y' }))?.n).toBe(9);
      await store.close();
    });

    it('hands out frozen documents: a reader cannot change what the next one reads', async () => {
      const store = new SqliteStore();
      await store.open([Cached]);
      const notes = store.collection(Cached);
      const { _id } = await notes.insert({ recipient_id: 'r', is_read: false, n: 0, tags: ['a'] });
      const read = (await notes.findById(_id)) as Note;
      expect(() => {
        read.n = 5;
      }).toThrow(TypeError);
      expect(() => read.tags?.push('b')).toThrow(TypeError);
      expect(await notes.findById(_id)).toEqual({ _id, recipient_id: 'r', is_read: false, n: 0, tags: ['a'] });
      await store.close();
    });
  });
});
