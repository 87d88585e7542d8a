// One contract for every store engine (ARCHITECTURE §3): SQLite in memory, SQLite on disk,
// PostgreSQL on a private server this suite starts (Debian's binaries; under CI=true a missing
// one fails the run), and MongoDB when MONGO_URL is set. A behaviour a service relies on belongs here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { PostgresServerHandle, postgresServerAvailable, startPostgresServer } from '@app/testing/engines';
import { newId } from './ids';
import { MongoStore } from './mongo/mongo-store';
import { PostgresStore } from './postgres/postgres-store';
import { SqliteStore } from './sqlite/sqlite-store';
import { DuplicateKeyError } from './store.errors';
import { BaseDoc, Collection, defineCollection, Store } from './store.port';

interface Item extends BaseDoc {
  name: string;
  n: number;
  tags?: string[];
  meta?: { color: string; size: number };
  note?: string | null;
  at?: Date;
}

interface Member extends BaseDoc {
  squadId: string;
  userId: string;
  email?: string;
}

const Items = defineCollection<Item>('contract_items', [{ fields: { n: 1 } }, { fields: { 'meta.color': 1, n: -1 } }]);
const Members = defineCollection<Member>('contract_members', [
  { fields: { email: 1 }, unique: true, sparse: true },
  { fields: { squadId: 1, userId: 1 }, unique: true },
]);
interface Post extends BaseDoc {
  title: string;
  body: string;
  author: string;
}

const Posts = defineCollection<Post>('contract_posts', [{ fields: { author: 1 } }], { text: ['title', 'body'] });
const DEFS = [Items, Members, Posts];
const ID = /^[0-9a-f]{24}$/;

interface Engine {
  name: string;
  /** A new store over this engine's data, opened. */
  open(): Promise<Store>;
  /** Whether data outlives close() (the persistence case runs only then). */
  persistent: boolean;
  cleanup(): Promise<void>;
}

async function opened(store: Store): Promise<Store> {
  await store.open(DEFS);
  return store;
}

function engines(): Engine[] {
  const list: Engine[] = [
    { name: 'sqlite (:memory:)', persistent: false, open: () => opened(new SqliteStore({ file: ':memory:' })), cleanup: async () => {} },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
  list.push({
    name: 'sqlite (file)',
    persistent: true,
    open: () => opened(new SqliteStore({ file: join(dir, 'contract.sqlite') })),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  });
  if (postgresServerAvailable() || process.env.CI === 'true') {
    let server: PostgresServerHandle | undefined;
    const schema = `contract_${newId()}`;
    list.push({
      name: 'postgres',
      persistent: true,
      open: async () => opened(new PostgresStore({ url: (server ??= await startPostgresServer()).url, schema })),
      cleanup: async () => server?.stop(),
    });
  } else {
    console.info('PostgreSQL binaries not found: the store contract skips PostgreSQL (install postgresql).');
  }
  const url = process.env.MONGO_URL;
  if (url) {
    const dbName = `contract_${newId()}`;
    list.push({
      name: 'mongo',
      persistent: true,
      open: () => opened(new MongoStore({ url, dbName })),
      cleanup: async () => {
        const conn = await mongoose.createConnection(url, { dbName }).asPromise();
        await conn.dropDatabase();
        await conn.close();
      },
    });
  } else {
    console.info('MONGO_URL is not set: the store contract runs on SQLite only.');
  }
  return list;
}

const names = (docs: Pick<Item, 'name'>[]) => docs.map((d) => d.name).sort();

describe.each(engines())('Store contract: $name', (engine) => {
  let store: Store;
  let items: Collection<Item>;
  let members: Collection<Member>;

  beforeAll(async () => {
    store = await engine.open();
    items = store.collection(Items);
    members = store.collection(Members);
  });

  afterAll(async () => {
    await store.close();
    await engine.cleanup();
  });

  beforeEach(async () => {
    await items.deleteMany({});
    await members.deleteMany({});
  });

  const seed = () =>
    items.insertMany([
      { name: 'Alpha', n: 1, tags: ['a', 'b'], meta: { color: 'red', size: 3 } },
      { name: 'beta', n: 2, tags: ['b'], meta: { color: 'blue', size: 1 } },
      { name: 'Gamma', n: 3, tags: [], meta: { color: 'red', size: 2 }, note: 'x' },
      { name: 'delta', n: 4, meta: { color: 'green', size: 2 } },
      { name: 'Epsilon', n: 5, tags: ['c'], meta: { color: 'red', size: 1 }, note: 'y' },
    ]);

  it('is healthy once open', async () => {
    expect(await store.isHealthy()).toBe(true);
  });

  describe('CRUD', () => {
    it('insert returns the document with a new string _id, and findById reads it back', async () => {
      const at = new Date('2024-05-06T07:08:09.010Z');
      const doc = await items.insert({ name: 'one', n: 1, meta: { color: 'red', size: 1 }, at });
      expect(doc._id).toMatch(ID);
      expect(doc).toMatchObject({ name: 'one', n: 1, meta: { color: 'red', size: 1 }, at });
      const read = await items.findById(doc._id);
      expect(read).toEqual(doc);
      expect(read?.at).toBeInstanceOf(Date);
      expect(await items.findById(newId())).toBeNull();
    });

    it('insert keeps a given _id; insertMany returns every document', async () => {
      const given = newId();
      expect((await items.insert({ _id: given, name: 'given', n: 0 }))._id).toBe(given);
      const many = await items.insertMany([
        { name: 'a', n: 1 },
        { name: 'b', n: 2 },
      ]);
      expect(many.map((d) => d.name)).toEqual(['a', 'b']);
      many.forEach((d) => expect(d._id).toMatch(ID));
      expect(await items.insertMany([])).toEqual([]);
      expect(await items.count({})).toBe(3);
    });

    it('findOne, find and count', async () => {
      await seed();
      expect((await items.findOne({ name: 'beta' }))?.n).toBe(2);
      expect(await items.findOne({ name: 'nobody' })).toBeNull();
      expect((await items.findOne({ 'meta.color': 'red' }, { sort: { n: -1 } }))?.name).toBe('Epsilon');
      expect(names(await items.find({ 'meta.color': 'red' }))).toEqual(['Alpha', 'Epsilon', 'Gamma']);
      expect(await items.find({ name: 'nobody' })).toEqual([]);
      expect(await items.count({})).toBe(5);
      expect(await items.count({ 'meta.color': 'red' })).toBe(3);
    });

    it('updateOne changes one matching document, updateMany all of them', async () => {
      await seed();
      const one = await items.updateOne({ 'meta.color': 'red' }, { $set: { note: 'one' } });
      expect(one).toMatchObject({ matched: 1, upserted: false });
      expect(await items.count({ note: 'one' })).toBe(1);

      const many = await items.updateMany({ 'meta.color': 'red' }, { $set: { note: 'all' } });
      expect(many).toMatchObject({ matched: 3, modified: 3, upserted: false });
      expect(await items.count({ note: 'all' })).toBe(3);

      expect(await items.updateOne({ name: 'nobody' }, { $set: { n: 9 } })).toMatchObject({ matched: 0, upserted: false });
    });

    it('findOneAndUpdate returns the document as it is after the update', async () => {
      await seed();
      const after = await items.findOneAndUpdate({ name: 'beta' }, { $inc: { n: 10 }, $set: { note: 'z' } });
      expect(after).toMatchObject({ name: 'beta', n: 12, note: 'z' });
      expect(after?._id).toMatch(ID);
      expect(await items.findOneAndUpdate({ name: 'nobody' }, { $set: { n: 1 } })).toBeNull();
      expect(await items.count({ name: 'nobody' })).toBe(0);
    });

    it('deleteOne removes one matching document, deleteMany all of them', async () => {
      await seed();
      expect(await items.deleteOne({ 'meta.color': 'red' })).toBe(1);
      expect(await items.count({ 'meta.color': 'red' })).toBe(2);
      expect(await items.deleteOne({ name: 'nobody' })).toBe(0);
      expect(await items.deleteMany({ 'meta.color': 'red' })).toBe(2);
      expect(await items.deleteMany({})).toBe(2);
      expect(await items.count({})).toBe(0);
    });
  });

  describe('writeWithCommit', () => {
    const quoted = { name: "O'Brien \\ $1 ; COMMIT", n: 7, meta: { color: 'red', size: 1 }, at: new Date(1_700_000_000_000) };

    it('outside a transaction writes at once, text with quotes and backslashes and dates intact', async () => {
      await items.insert({ _id: 'gone', name: 'gone', n: 0 });
      await items.writeWithCommit({ insert: [{ _id: 'kept', ...quoted }], remove: ['gone'] });
      expect(await items.findById('kept')).toEqual({ _id: 'kept', ...quoted });
      expect(await items.findById('gone')).toBeNull();
    });

    it('inside a transaction writes with its commit (searchable rows too), and a rollback leaves nothing written', async () => {
      if (!store.transaction) return; // no transactions: covered above
      const posts = store.collection(Posts);
      await posts.deleteMany({});
      await items.insertMany([{ _id: 'old1', name: 'old', n: 1 }, { _id: 'old2', name: 'old', n: 2 }]);
      await store.transaction(async () => {
        await items.writeWithCommit({ insert: [{ _id: 'new', ...quoted }], remove: ['old1'] });
        await posts.writeWithCommit({ insert: [{ _id: 'p1', title: 'Çay bahçesi', body: 'kettle', author: 'ada' }] });
        await items.updateOne({ _id: 'old2' }, { $set: { n: 20 } });
      });
      expect(await items.findById('new')).toEqual({ _id: 'new', ...quoted });
      expect(await items.findById('old1')).toBeNull();
      expect((await items.findById('old2'))?.n).toBe(20);
      expect((await posts.search('cay', {})).map((p) => p._id)).toEqual(['p1']);

      await expect(
        store.transaction(async () => {
          await items.writeWithCommit({ insert: [{ _id: 'never', name: 'never', n: 9 }], remove: ['old2'] });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await items.findById('never')).toBeNull();
      expect(await items.findById('old2')).not.toBeNull();
    });

    it('updateWithCommit: at once outside a transaction; inside one with its commit, latest version updated, nothing on a rollback', async () => {
      await items.insertMany([
        { _id: 'u1', name: 'one', n: 1, meta: { color: 'red', size: 1 } },
        { _id: 'u2', name: 'two', n: 2, meta: { color: 'red', size: 2 } },
        { _id: 'u3', name: 'three', n: 3, meta: { color: 'blue', size: 3 } },
      ]);
      await items.updateWithCommit({ _id: 'u1' }, { $set: { note: "it's" } });
      expect((await items.findById('u1'))?.note).toBe("it's");
      if (!store.transaction) return;
      await store.transaction(async () => {
        await items.updateWithCommit({ 'meta.color': 'red', _id: { $ne: 'u1' } }, { $inc: { n: -5 }, $set: { tags: ['x', "y'z"] } });
        await items.updateWithCommit({ _id: { $in: ['u1', 'u3'] } }, { $set: { note: 'both \\ $1' }, $unset: { meta: '' } });
        await items.updateOne({ _id: 'u2' }, { $inc: { n: 100 } });
      });
      expect(await items.findById('u2')).toMatchObject({ n: 97, tags: ['x', "y'z"] });
      expect(await items.find({ tags: 'x' })).toHaveLength(1);
      expect((await items.find({ note: 'both \\ $1' })).map((d) => d._id).sort()).toEqual(['u1', 'u3']);
      expect((await items.findById('u3'))?.meta).toBeUndefined();
      await expect(
        store.transaction(async () => {
          await items.updateWithCommit({}, { $set: { n: 0 } });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await items.count({ n: 0 })).toBe(0);
    });

    it('a refused insert rolls the whole transaction back', async () => {
      if (!store.transaction) return;
      await items.insert({ _id: 'taken', name: 'taken', n: 1 });
      await expect(
        store.transaction(async () => {
          await items.updateOne({ _id: 'taken' }, { $set: { n: 2 } });
          await items.writeWithCommit({ insert: [{ _id: 'taken', name: 'again', n: 3 }] });
        }),
      ).rejects.toThrow();
      expect(await items.findById('taken')).toEqual({ _id: 'taken', name: 'taken', n: 1 });
    });
  });

  describe('flip and deleteWithCommit', () => {
    const counted = () => ({ collection: items, id: 'counter', field: 'n' });
    const key = (userId: string) => ({ squadId: 's1', userId });
    const flip = (userId: string) => members.flip(key(userId), key(userId), counted());

    it.each([false, true])('inserts, or deletes what its key matches, and moves the count by one, never below 0 (in a transaction: %s)', async (inTransaction) => {
      if (inTransaction && !store.transaction) return;
      const run = <R>(work: () => Promise<R>) => (inTransaction && store.transaction ? store.transaction(work) : work());
      expect(await run(() => flip('u1'))).toEqual({ inserted: true, count: 1 });
      expect(await items.findById('counter')).toEqual({ _id: 'counter', n: 1 });
      expect(await run(() => flip('u2'))).toEqual({ inserted: true, count: 2 });
      expect(await run(() => flip('u1'))).toEqual({ inserted: false, count: 1 });
      expect(await members.find({ squadId: 's1' })).toEqual([expect.objectContaining(key('u2'))]);
      await items.updateOne({ _id: 'counter' }, { $set: { n: 0 } });
      expect(await run(() => flip('u2'))).toEqual({ inserted: false, count: 0 });
      expect(await members.count({ squadId: 's1' })).toBe(0);
      // Refused by the unique index while its match finds nothing: nothing changes.
      await members.insert(key('u3'));
      expect(await run(() => members.flip(key('u3'), key('someone else'), counted()))).toBeNull();
      expect(await members.count(key('u3'))).toBe(1);
      expect((await items.findById('counter'))?.n).toBe(0);
    });

    it('keeps the count equal to the rows under concurrent flips, and a rollback leaves both as they were', async () => {
      const run = <R>(work: () => Promise<R>) => (store.transaction ? store.transaction(work) : work());
      await Promise.all(Array.from({ length: 30 }, (_, i) => run(() => flip(`u${i % 10}`))));
      const rows = await members.count({ squadId: 's1' });
      expect((await items.findById('counter'))?.n).toBe(rows);
      if (!store.transaction) return;
      await expect(
        store.transaction(async () => {
          await flip('u0');
          await flip('new');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await members.count({ squadId: 's1' })).toBe(rows);
      expect((await items.findById('counter'))?.n).toBe(rows);
    });

    it('deleteWithCommit deletes what its filter matches: at once outside a transaction, with the commit inside one, nothing on a rollback', async () => {
      await members.insertMany([key('a'), key('b'), key('c'), { squadId: 's2', userId: 'a' }]);
      await members.deleteWithCommit(key('a'));
      expect(await members.count({ squadId: 's1' })).toBe(2);
      if (!store.transaction) return;
      await expect(
        store.transaction(async () => {
          await members.deleteWithCommit({ squadId: 's1' });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await members.count({ squadId: 's1' })).toBe(2);
      await store.transaction(() => members.deleteWithCommit({ squadId: 's1', userId: { $in: ['b', 'c'] } }));
      expect(await members.find({})).toEqual([expect.objectContaining({ squadId: 's2', userId: 'a' })]);
    });
  });

  describe('query subset', () => {
    beforeEach(seed);

    it.each([
      ['$in', { name: { $in: ['Alpha', 'delta', 'nobody'] } }, ['Alpha', 'delta']],
      ['$in on an array field', { tags: { $in: ['b', 'c'] } }, ['Alpha', 'Epsilon', 'beta']],
      ['equality on an array field', { tags: 'b' }, ['Alpha', 'beta']],
      ['$nin', { name: { $nin: ['Alpha', 'beta', 'Gamma'] } }, ['Epsilon', 'delta']],
      ['$ne', { 'meta.color': { $ne: 'red' } }, ['beta', 'delta']],
      ['$gt and $lte', { n: { $gt: 1, $lte: 3 } }, ['Gamma', 'beta']],
      ['$gte and $lt', { n: { $gte: 4, $lt: 99 } }, ['Epsilon', 'delta']],
      ['$exists: true', { note: { $exists: true } }, ['Epsilon', 'Gamma']],
      ['$exists: false', { note: { $exists: false } }, ['Alpha', 'beta', 'delta']],
      ['$regex with a case-insensitive RegExp', { name: { $regex: /^(a|b|g)/i } }, ['Alpha', 'Gamma', 'beta']],
      ['$or', { $or: [{ n: 1 }, { 'meta.color': 'green' }] }, ['Alpha', 'delta']],
      ['$and', { $and: [{ 'meta.color': 'red' }, { n: { $gt: 1 } }] }, ['Epsilon', 'Gamma']],
      ['nested dotted fields', { 'meta.color': 'red', 'meta.size': { $lte: 2 } }, ['Epsilon', 'Gamma']],
    ])('%s', async (_label, filter, expected) => {
      expect(names(await items.find(filter))).toEqual(expected);
      expect(await items.count(filter)).toBe(expected.length);
    });

    it('$regex as a string with $options', async () => {
      expect(names(await items.find({ name: { $regex: 'LTA$', $options: 'i' } }))).toEqual(['delta']);
    });

    it('null matches a missing field too, as in MongoDB', async () => {
      await items.insert({ name: 'Zeta', n: 6, note: null });
      const cases: [Record<string, unknown>, string[]][] = [
        [{ note: null }, ['Alpha', 'Zeta', 'beta', 'delta']],
        [{ note: { $ne: null } }, ['Epsilon', 'Gamma']],
        [{ note: { $in: [null, 'x'] } }, ['Alpha', 'Gamma', 'Zeta', 'beta', 'delta']],
        [{ note: { $nin: [null, 'x'] } }, ['Epsilon']],
        [{ note: { $exists: true } }, ['Epsilon', 'Gamma', 'Zeta']],
        [{ $or: [{ note: null, n: { $gt: 3 } }, { name: 'Gamma' }] }, ['Gamma', 'Zeta', 'delta']],
      ];
      for (const [filter, expected] of cases) expect(names(await items.find(filter))).toEqual(expected);
    });

    it('$in on _id', async () => {
      const [a, b] = await items.find({ name: { $in: ['Alpha', 'beta'] } });
      expect(names(await items.find({ _id: { $in: [a._id, b._id, newId()] } }))).toEqual(['Alpha', 'beta']);
    });
  });

  describe('countBy', () => {
    beforeEach(seed);

    it('counts matching documents per value of a field, dotted ones too', async () => {
      expect(await items.countBy({}, 'meta.color')).toEqual(new Map([['red', 3], ['blue', 1], ['green', 1]]));
      expect(await items.countBy({ n: { $gt: 1 } }, 'meta.color')).toEqual(new Map([['red', 2], ['blue', 1], ['green', 1]]));
      expect(await items.countBy({ n: { $in: [2, 4] } }, 'n')).toEqual(new Map([[2, 1], [4, 1]]));
      expect(await items.countBy({ n: 99 }, 'name')).toEqual(new Map());
    });

    it('counts a missing field and a null one together under null', async () => {
      await items.insert({ name: 'Zeta', n: 6, note: null });
      expect(await items.countBy({}, 'note')).toEqual(new Map<unknown, number>([[null, 4], ['x', 1], ['y', 1]]));
    });

    it('keeps true, false, 1, 0 and "1" apart', async () => {
      const flags: unknown[] = [true, true, false, 1, 0, 0, '1'];
      await items.insertMany(flags.map((flag, i) => ({ name: `f${i}`, n: 10 + i, flag }) as unknown as Item));
      expect(await items.countBy({ n: { $gte: 10 } }, 'flag')).toEqual(
        new Map<unknown, number>([[true, 2], [false, 1], [1, 1], [0, 2], ['1', 1]]),
      );
    });

    it('applies filters SQL cannot express (a regex) before counting', async () => {
      expect(await items.countBy({ name: { $regex: /^(a|b|g)/i } }, 'meta.color')).toEqual(new Map([['red', 2], ['blue', 1]]));
    });
  });

  describe('updates', () => {
    let id: string;
    const doc = async () => (await items.findById(id)) as Item;

    beforeEach(async () => {
      id = (await items.insert({ name: 'u', n: 1, tags: ['a', 'b', 'a'], meta: { color: 'red', size: 1 }, note: 'x' }))._id;
    });

    it('incrementEach adds to each document its own amounts, a field it lists and only those', async () => {
      const [a, b] = await items.insertMany([
        { name: 'a', n: 10, meta: { color: 'red', size: 1 } },
        { name: 'b', n: 20 },
      ]);
      const matched = await items.incrementEach([
        { id: a._id, inc: { n: 5, score: 2 } },
        { id: b._id, inc: { n: -1.5 } },
        { id: a._id, inc: { n: 1 } },
        { id: 'ffffffffffffffffffffffff', inc: { n: 1 } },
      ]);
      expect(matched).toBe(2);
      expect(await items.findById(a._id)).toEqual({ _id: a._id, name: 'a', n: 16, score: 2, meta: { color: 'red', size: 1 } });
      expect(await items.findById(b._id)).toEqual({ _id: b._id, name: 'b', n: 18.5 });
      expect(await items.find({ n: { $gte: 16 } }, { sort: { n: 1 } })).toEqual([await items.findById(a._id), await items.findById(b._id)]);
      expect(await items.incrementEach([])).toBe(0);
      // A counter moved meanwhile by another write is added to, not overwritten.
      await items.updateOne({ _id: b._id }, { $inc: { n: 100 } });
      await items.incrementEach([{ id: b._id, inc: { n: 1 } }]);
      expect((await items.findById(b._id))?.n).toBe(119.5);
    });

    it('$set (also dotted) and $unset', async () => {
      await items.updateOne({ _id: id }, { $set: { name: 'v', 'meta.size': 7 }, $unset: { note: true } });
      const d = await doc();
      expect(d).toMatchObject({ name: 'v', meta: { color: 'red', size: 7 } });
      expect(d).not.toHaveProperty('note');
    });

    it('$set of an object or array value replaces the field whole, dates and nested arrays kept, and its arrays match element-wise', async () => {
      const at = new Date(1_700_000_000_000);
      await items.updateOne({ _id: id }, { $set: { meta: { color: 'blue' } as Item['meta'], tags: ['x', 'y'], last: { id: 'm1', at, ids: ['p', 'q'], empty: {} } } });
      const d = (await doc()) as Item & { last: unknown };
      expect(d.meta).toEqual({ color: 'blue' });
      expect(d.tags).toEqual(['x', 'y']);
      expect(d.last).toEqual({ id: 'm1', at, ids: ['p', 'q'], empty: {} });
      expect((d.last as { at: unknown }).at).toBeInstanceOf(Date);
      expect(names(await items.find({ tags: 'y' }))).toEqual(['u']);
      expect(names(await items.find({ 'last.ids': 'q' }))).toEqual(['u']);
      expect(names(await items.find({ 'last.id': 'm1', 'meta.color': 'blue' }))).toEqual(['u']);
      // An upsert takes the object as it is.
      await items.updateOne({ _id: 'fresh' }, { $set: { name: 'f', n: 0, meta: { color: 'red', size: 2 } } }, { upsert: true });
      expect(await items.findById('fresh')).toMatchObject({ name: 'f', meta: { color: 'red', size: 2 } });
    });

    it('$inc (also on a missing field)', async () => {
      await items.updateOne({ _id: id }, { $inc: { n: 4, 'meta.size': -1, fresh: 2 } });
      expect(await doc()).toMatchObject({ n: 5, meta: { size: 0 }, fresh: 2 });
    });

    it('$push, $addToSet and $pull', async () => {
      await items.updateOne({ _id: id }, { $push: { tags: 'c' } });
      expect((await doc()).tags).toEqual(['a', 'b', 'a', 'c']);
      await items.updateOne({ _id: id }, { $addToSet: { tags: 'c' } });
      await items.updateOne({ _id: id }, { $addToSet: { tags: 'd' } });
      expect((await doc()).tags).toEqual(['a', 'b', 'a', 'c', 'd']);
      await items.updateOne({ _id: id }, { $pull: { tags: 'a' } });
      expect((await doc()).tags).toEqual(['b', 'c', 'd']);
      await items.updateOne({ _id: id }, { $push: { list: 1 } });
      expect(await doc()).toMatchObject({ list: [1] });
    });

    it('upsert creates a document with a string _id from the filter and the update', async () => {
      const res = await items.updateOne({ name: 'new' }, { $set: { note: 'made' }, $inc: { n: 1 } }, { upsert: true });
      expect(res.upserted).toBe(true);
      const made = await items.findOne({ name: 'new' });
      expect(made).toMatchObject({ name: 'new', note: 'made', n: 1 });
      expect(made?._id).toMatch(ID);

      const again = await items.updateOne({ name: 'new' }, { $inc: { n: 1 } }, { upsert: true });
      expect(again).toMatchObject({ matched: 1, upserted: false });
      expect(await items.count({ name: 'new' })).toBe(1);
      expect((await items.findOne({ name: 'new' }))?.n).toBe(2);
    });

    it('findOneAndUpdate with upsert returns the created document', async () => {
      const made = await items.findOneAndUpdate({ name: 'fresh' }, { $set: { n: 3 } }, { upsert: true });
      expect(made).toMatchObject({ name: 'fresh', n: 3 });
      expect(made?._id).toMatch(ID);
      expect(await items.findById(made!._id)).toEqual(made);
    });
  });

  describe('sort, skip, limit, projection', () => {
    beforeEach(seed);

    it('sorts ascending and descending', async () => {
      expect((await items.find({}, { sort: { n: 1 } })).map((d) => d.n)).toEqual([1, 2, 3, 4, 5]);
      expect((await items.find({}, { sort: { n: -1 } })).map((d) => d.n)).toEqual([5, 4, 3, 2, 1]);
    });

    it('sorts on two keys', async () => {
      const docs = await items.find({}, { sort: { 'meta.size': 1, n: -1 } });
      expect(docs.map((d) => d.name)).toEqual(['Epsilon', 'beta', 'delta', 'Gamma', 'Alpha']);
    });

    it('skips and limits after sorting', async () => {
      expect((await items.find({}, { sort: { n: -1 }, skip: 1, limit: 2 })).map((d) => d.n)).toEqual([4, 3]);
      expect((await items.find({}, { sort: { n: 1 }, skip: 4, limit: 10 })).map((d) => d.n)).toEqual([5]);
      expect(await items.find({}, { sort: { n: 1 }, skip: 5 })).toEqual([]);
      // One document, with and without a skip (SQLite writes a lone LIMIT 1 into the statement).
      expect((await items.find({}, { sort: { n: -1 }, limit: 1 })).map((d) => d.n)).toEqual([5]);
      expect((await items.find({}, { sort: { n: -1 }, skip: 2, limit: 1 })).map((d) => d.n)).toEqual([3]);
      expect((await items.findOne({ n: { $lt: 3 } }, { sort: { n: -1 } }))?.n).toBe(2);
    });

    it('projects included fields exactly: missing ones left out, null, arrays, sub-documents and dates kept', async () => {
      const at = new Date('2024-05-06T07:08:09.010Z');
      await items.insert({ name: 'Zeta', n: 6, note: null, tags: ['z'], at });
      const docs = await items.find({ n: { $gte: 4 } }, { projection: { name: 1, note: 1, tags: 1, meta: 1, at: 1 }, sort: { n: 1 } });
      expect(docs).toEqual([
        { _id: expect.stringMatching(ID), name: 'delta', meta: { color: 'green', size: 2 } },
        { _id: expect.stringMatching(ID), name: 'Epsilon', note: 'y', tags: ['c'], meta: { color: 'red', size: 1 } },
        { _id: expect.stringMatching(ID), name: 'Zeta', note: null, tags: ['z'], at },
      ]);
      expect(docs[2].at).toBeInstanceOf(Date);
      expect(await items.find({ name: 'beta' }, { projection: { _id: 0, n: 1, nothing: 1 } })).toEqual([{ n: 2 }]);
      const odd = 'quote " back \\ ünïcödé 👋 a.b';
      await items.insert({ name: odd, n: 7 });
      expect(await items.findOne({ n: 7 }, { projection: { name: 1 } })).toEqual({ _id: expect.stringMatching(ID), name: odd });
    });

    it('projects included or excluded fields', async () => {
      const [only] = await items.find({ name: 'Alpha' }, { projection: { name: 1, 'meta.color': 1 } });
      expect(only).toEqual({ _id: expect.stringMatching(ID), name: 'Alpha', meta: { color: 'red' } });
      const without = await items.findOne({ name: 'Gamma' }, { projection: { meta: 0, tags: 0 } });
      expect(without).toEqual({ _id: expect.stringMatching(ID), name: 'Gamma', n: 3, note: 'x' });
    });

    it('projects the ids alone, and leaves out the id alone', async () => {
      const ids = await items.find({ n: { $lte: 2 } }, { projection: { _id: 1 }, sort: { n: 1 } });
      expect(ids).toEqual([{ _id: expect.stringMatching(ID) }, { _id: expect.stringMatching(ID) }]);
      expect(await items.find({ _id: { $in: ids.map((d) => d._id) } }, { projection: { _id: 1 } })).toEqual(expect.arrayContaining(ids));
      expect(await items.findOne({ name: 'Gamma' }, { projection: { _id: 0 } })).toEqual({ name: 'Gamma', n: 3, note: 'x', tags: expect.any(Array), meta: expect.any(Object) });
    });
  });

  describe('unique indexes', () => {
    it('refuse a duplicate single-field key on insert (sparse: documents without it are fine)', async () => {
      await members.insert({ squadId: 's', userId: 'u1', email: 'a@x.io' });
      await expect(members.insert({ squadId: 's', userId: 'u2', email: 'a@x.io' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await members.insert({ squadId: 's', userId: 'u3' });
      await members.insert({ squadId: 's', userId: 'u4' });
      expect(await members.count({})).toBe(3);
    });

    it('refuse a duplicate compound key on insert', async () => {
      await members.insert({ squadId: 's1', userId: 'u' });
      await members.insert({ squadId: 's2', userId: 'u' });
      await expect(members.insert({ squadId: 's1', userId: 'u' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(members.insertMany([{ squadId: 's3', userId: 'u' }, { squadId: 's3', userId: 'u' }])).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
    });

    it('refuse an update that would duplicate a key, and leave the document as it was', async () => {
      await members.insert({ squadId: 's', userId: 'u1', email: 'a@x.io' });
      const b = await members.insert({ squadId: 's', userId: 'u2', email: 'b@x.io' });
      await expect(members.updateOne({ _id: b._id }, { $set: { email: 'a@x.io' } })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(members.updateMany({ _id: b._id }, { $set: { userId: 'u1' } })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(members.findOneAndUpdate({ _id: b._id }, { $set: { userId: 'u1' } })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(
        members.updateOne({ email: 'c@x.io' }, { $set: { squadId: 's', userId: 'u1' } }, { upsert: true }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await members.findById(b._id)).toEqual(b);
      expect(await members.count({})).toBe(2);
    });
  });

  describe('what an index-backed engine can get wrong', () => {
    it('unique + sparse: many documents without the field, one per value with it, and a freed value is reusable', async () => {
      await members.insertMany([{ squadId: 's', userId: 'u1' }, { squadId: 's', userId: 'u2' }, { squadId: 's', userId: 'u3', email: 'e@x.io' }]);
      await expect(members.insert({ squadId: 't', userId: 'u4', email: 'e@x.io' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await members.updateOne({ email: 'e@x.io' }, { $unset: { email: true } });
      await members.insert({ squadId: 't', userId: 'u4', email: 'e@x.io' });
      expect(await members.count({ email: { $exists: false } })).toBe(3);
      expect(await members.count({ email: 'e@x.io' })).toBe(1);
    });

    it('$in on an indexed field, alone and with a range on the same field', async () => {
      await seed();
      expect(names(await items.find({ n: { $in: [1, 3, 5, 7] } }))).toEqual(['Alpha', 'Epsilon', 'Gamma']);
      expect(names(await items.find({ n: { $in: [1, 3, 5], $gt: 1 } }))).toEqual(['Epsilon', 'Gamma']);
      expect(await items.count({ 'meta.color': { $in: ['red', 'green'] } })).toBe(4);
    });

    it('sort + skip + limit on a compound index (equality on its first field, order from its second)', async () => {
      await items.insertMany(Array.from({ length: 30 }, (_, n) => ({ name: `i${n}`, n, meta: { color: n % 2 ? 'odd' : 'even', size: n } })));
      const page = await items.find({ 'meta.color': 'odd' }, { sort: { n: -1 }, skip: 3, limit: 4 });
      expect(page.map((d) => d.n)).toEqual([23, 21, 19, 17]);
      const last = await items.find({ 'meta.color': 'odd' }, { sort: { n: -1 }, skip: 13, limit: 4 });
      expect(last.map((d) => d.n)).toEqual([3, 1]);
    });

    it('keeps $inc exact when increments, upserts and reads interleave', async () => {
      const { _id } = await items.insert({ name: 'race', n: 0 });
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          i % 3 === 0
            ? items.findOneAndUpdate({ _id }, { $inc: { n: 1 } })
            : i % 3 === 1
              ? items.updateOne({ name: 'race' }, { $inc: { n: 1 } }, { upsert: true })
              : items.updateMany({ _id }, { $inc: { n: 1 } }),
        ),
      );
      expect((await items.findById(_id))?.n).toBe(60);
      expect(await items.count({ name: 'race' })).toBe(1);
    });

    it('a $in list of 5000 ids', async () => {
      const docs = await items.insertMany(Array.from({ length: 300 }, (_, n) => ({ name: `b${n}`, n })));
      const ids = [...docs.filter((d) => d.n % 3 === 0).map((d) => d._id), ...Array.from({ length: 4900 }, () => newId())];
      expect(ids.length).toBe(5000);
      expect(await items.count({ _id: { $in: ids } })).toBe(100);
      expect((await items.find({ _id: { $nin: ids } })).length).toBe(200);
      expect(await items.deleteMany({ _id: { $in: ids } })).toBe(100);
      expect(await items.count({})).toBe(200);
    });

    it('unicode and dots in string values round-trip and match exactly', async () => {
      const odd = ['Ayşe Yılmaz', 'çğıöşü ÇĞİÖŞÜ', '👋 emoji', 'v2.0', 'a.b.c', '$not.an.operator', "quote ' and \" and \\"];
      await items.insertMany(odd.map((name, n) => ({ name, n, meta: { color: name, size: n } })));
      for (const name of odd) {
        expect((await items.findOne({ name }))?.name).toBe(name);
        expect(await items.count({ 'meta.color': name })).toBe(1);
      }
      expect(names(await items.find({ name: { $in: ['v2.0', 'a.b.c', 'v2'] } }))).toEqual(['a.b.c', 'v2.0']);
      expect(names(await items.find({ name: { $gte: 'v', $lt: 'w' } }))).toEqual(['v2.0']);
    });
  });

  it('strings holding U+0000 or a lone surrogate (and the private-use U+E000) round-trip and match exactly', async () => {
    const odd = ['nul \u0000 inside', '\u0000', 'private \uE000 use', '\uE000\u0000\uE0000', 'back\\u0000slash', 'lone \ud800 surrogate', '\udfff\ud83d'];
    const docs = await items.insertMany(odd.map((name, n) => ({ name, n, meta: { color: name, size: n } })));
    for (const [i, name] of odd.entries()) {
      expect((await items.findById(docs[i]._id))?.name).toBe(name);
      expect((await items.findOne({ name }))?.n).toBe(i);
      expect(await items.count({ 'meta.color': name })).toBe(1);
    }
    expect(names(await items.find({ name: { $in: [odd[0], odd[3]] } }))).toEqual([odd[0], odd[3]].sort());
    // An id holding one (a client's `%00`) is simply not found.
    expect(await items.findById(`${docs[0]._id}\u0000`)).toBeNull();
    expect(await items.count({ _id: { $in: [docs[1]._id, 'x\u0000'] } })).toBe(1);
    expect(await items.count({ _id: { $nin: [docs[1]._id, 'x\u0000'] } })).toBe(odd.length - 1);
    expect(await items.count({ _id: { $ne: 'x\u0000' } })).toBe(odd.length);
    expect(await items.deleteOne({ _id: '\u0000' })).toBe(0);
    await items.updateOne({ _id: docs[0]._id }, { $set: { note: 'x\u0000y' } });
    expect(await items.findOne({ note: 'x\u0000y' }, { projection: { note: 1 } })).toEqual({ _id: docs[0]._id, note: 'x\u0000y' });
  });

  describe('text search', () => {
    let posts: Collection<Post>;
    const titles = (docs: Post[]) => docs.map((d) => d.title);

    beforeEach(async () => {
      posts = store.collection(Posts);
      await posts.deleteMany({});
    });

    it('ranks the document holding the words more often first, and wants every word', async () => {
      await posts.insertMany([
        { title: 'Kettle', body: 'A kettle that boils fast', author: 'a' },
        { title: 'Kettle review', body: 'This kettle is the best kettle, kettle of the year', author: 'b' },
        { title: 'Toaster', body: 'Nothing about boiling here', author: 'a' },
      ]);
      expect(titles(await posts.search('kettle', {}))).toEqual(['Kettle review', 'Kettle']);
      expect(titles(await posts.search('kettle fast', {}))).toEqual(['Kettle']);
      expect(await posts.search('kettle toaster', {})).toEqual([]);
    });

    it('folds case, diacritics and Turkish İ, I and ı both ways', async () => {
      await posts.insertMany([
        { title: 'İSTANBUL Şekerci', body: 'Çok güzel lokum', author: 'a' },
        { title: 'Işıklı kulaklık', body: 'ses iyi', author: 'a' },
      ]);
      expect(titles(await posts.search('istanbul sekerci', {}))).toEqual(['İSTANBUL Şekerci']);
      expect(titles(await posts.search('COK GUZEL', {}))).toEqual(['İSTANBUL Şekerci']);
      expect(titles(await posts.search('ışıklı', {}))).toEqual(['Işıklı kulaklık']);
      expect(titles(await posts.search('İSIKLI KULAKLIK', {}))).toEqual(['Işıklı kulaklık']);
    });

    it('matches earlier words whole, and a query without words matches nothing', async () => {
      await posts.insert({ title: 'Headphones', body: 'wireless', author: 'a' });
      expect(await posts.search('head wireless', {})).toEqual([]);
      expect(await posts.search(' "*- ', {})).toEqual([]);
      expect(titles(await posts.search('"wireless" OR', {}))).toEqual([]);
      expect(titles(await posts.search('wireless', {}))).toEqual(['Headphones']);
    });

    it('matches the last word as a prefix of a word (search as you type), folded for Turkish', async () => {
      await posts.insertMany([
        { title: 'Morning coffee', body: 'A bright roast', author: 'a' },
        { title: 'Decaf', body: 'not much caffeine', author: 'a' },
        { title: 'Işıklı kulaklık', body: 'Şarjı uzun gidiyor', author: 'b' },
      ]);
      expect(titles(await posts.search('cof', {}))).toEqual(['Morning coffee']);
      expect(titles(await posts.search('c', {})).sort()).toEqual(['Decaf', 'Morning coffee']);
      expect(titles(await posts.search('bright cof', {}))).toEqual(['Morning coffee']);
      // only the last word is a prefix, and a prefix starts a word
      expect(await posts.search('brig coffee', {})).toEqual([]);
      expect(await posts.search('offee', {})).toEqual([]);
      expect(titles(await posts.search('ISIK', {}))).toEqual(['Işıklı kulaklık']);
      expect(titles(await posts.search('kulaklık sar', {}))).toEqual(['Işıklı kulaklık']);
      expect(titles(await posts.search('şarj', {}))).toEqual(['Işıklı kulaklık']);
    });

    it('applies the filter and pages the ranked matches', async () => {
      await posts.insertMany([
        { title: 'one', body: 'lamp lamp lamp', author: 'a' },
        { title: 'two', body: 'lamp lamp', author: 'b' },
        { title: 'three', body: 'lamp', author: 'a' },
      ]);
      expect(titles(await posts.search('lamp', { author: 'a' }))).toEqual(['one', 'three']);
      expect(titles(await posts.search('lamp', { author: { $in: ['a', 'b'] } }, { skip: 1, limit: 1 }))).toEqual(['two']);
      expect(titles(await posts.search('lamp', { title: { $regex: /^t/ } }))).toEqual(['two', 'three']);
    });

    it('keeps the index in step with updates and deletes', async () => {
      const { _id } = await posts.insert({ title: 'Old name', body: 'blender', author: 'a' });
      await posts.insert({ title: 'Other', body: 'blender', author: 'a' });
      await posts.updateOne({ _id }, { $set: { title: 'New name' } });
      expect(await posts.search('old', {})).toEqual([]);
      expect(titles(await posts.search('new', {}))).toEqual(['New name']);
      await posts.findOneAndUpdate({ _id }, { $set: { body: 'mixer' } });
      expect(titles(await posts.search('blender', {}))).toEqual(['Other']);
      await posts.deleteOne({ _id });
      expect(await posts.search('mixer', {})).toEqual([]);
      await posts.deleteMany({ author: 'a' });
      expect(await posts.search('blender', {})).toEqual([]);
    });
  });

  it('keeps $inc exact under 100 concurrent updates', async () => {
    const { _id } = await items.insert({ name: 'counter', n: 0 });
    await Promise.all(Array.from({ length: 100 }, () => items.updateOne({ _id }, { $inc: { n: 1 } })));
    expect((await items.findById(_id))?.n).toBe(100);
  });

  // Last: it closes the suite's store and carries on with the reopened one.
  // Only engines that keep data on their own: an in-memory SQLite has nothing to reopen.
  if (engine.persistent) {
    it('keeps data and unique indexes after close and reopen', async () => {
      await seed();
      await items.updateOne({ name: 'beta' }, { $set: { note: 'kept' } });
      await items.deleteOne({ name: 'delta' });
      await members.insert({ squadId: 's', userId: 'u', email: 'a@x.io' });
      await store.close();
      expect(await store.isHealthy()).toBe(false);

      store = await engine.open();
      items = store.collection(Items);
      members = store.collection(Members);
      expect(names(await items.find({}))).toEqual(['Alpha', 'Epsilon', 'Gamma', 'beta']);
      expect((await items.findOne({ name: 'beta' }))?.note).toBe('kept');
      await expect(members.insert({ squadId: 's2', userId: 'u2', email: 'a@x.io' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(members.insert({ squadId: 's', userId: 'u' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await store.collection(Posts).insert({ title: 'Kept lamp', body: '', author: 'a' });
    });

    it('keeps the text index after close and reopen', async () => {
      await store.close();
      store = await engine.open();
      items = store.collection(Items);
      members = store.collection(Members);
      expect((await store.collection(Posts).search('lamp', {})).map((d) => d.title)).toEqual(['Kept lamp']);
    });
  }
});

