// What PostgreSQL adds to the store contract (store.contract.spec.ts): transactions across
// awaits, several processes on one schema, the plans its indexes give, and a fast boot failure.
import { createServer } from 'node:net';
import { Client } from 'pg';
import { describeWithPostgres, PostgresServerHandle, startPostgresServer } from '@app/testing/engines';
import { newId } from '../ids';
import { DuplicateKeyError, StoreUnavailableError } from '../store.errors';
import { BaseDoc, defineCollection } from '../store.port';
import { PostgresStore } from './postgres-store';

interface Like extends BaseDoc {
  reviewId: string;
  userId: string;
  created_at: number;
  tags?: string[];
}

const Likes = defineCollection<Like>('likes', [{ fields: { reviewId: 1, userId: 1 }, unique: true }, { fields: { userId: 1 }, orderBy: { created_at: -1 } }]);
const Outbox = defineCollection<BaseDoc & { type: string }>('outbox');

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A transaction's first insert, prepared on the connection (the insert before the transaction did it): after BEGIN in one round trip. */
const FIRST_INSERT = /^INSERT INTO .* VALUES \(\$1, \$2::jsonb\)/s;

/** Records every round trip `pg` clients make until `restore()`: its statements' texts, joined by '; '. */
function recordStatements(): { sent: string[]; restore: () => void } {
  const sent: string[] = [];
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string; texts?: string[] };
    sent.push(typeof config === 'string' ? config : (config.texts?.join('; ') ?? config.text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return { sent, restore: () => void (Client.prototype.query = query) };
}

/** The round trips besides those that only prepare a statement on a connection (its first use there). */
const withoutPrepares = (sent: string[]) => sent.filter((sql) => !sql.startsWith('PREPARE '));

describe('PostgresStore without a server', () => {
  it('open() fails fast with a StoreUnavailableError naming the URL, not the password', async () => {
    const url = `postgres://app:s3cret@127.0.0.1:${await closedPort()}/squadreviews`;
    const store = new PostgresStore({ url, schema: 'nowhere', pool: { connectTimeoutMs: 500 } });
    const started = Date.now();
    const error = await store.open([Likes]).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toContain(url.replace('s3cret', '***'));
    expect((error as Error).message).not.toContain('s3cret');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await store.isHealthy()).toBe(false);
    await store.close();
  });
});

describeWithPostgres('PostgresStore')('PostgresStore', () => {
  let server: PostgresServerHandle;
  let store: PostgresStore;
  const schema = `s_${newId()}`;

  beforeAll(async () => {
    server = await startPostgresServer();
    store = new PostgresStore({ url: server.url, schema });
    await store.open([Likes, Outbox]);
  });

  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    await store.collection(Likes).deleteMany({});
    await store.collection(Outbox).deleteMany({});
  });

  describe('transaction', () => {
    it('commits every operation inside it together, across awaits', async () => {
      await store.transaction(async () => {
        await store.collection(Likes).insert({ reviewId: 'r', userId: 'u', created_at: 1 });
        await new Promise((r) => setTimeout(r, 10));
        await store.collection(Outbox).insert({ type: 'like.created' });
      });
      expect(await store.collection(Likes).count({})).toBe(1);
      expect(await store.collection(Outbox).count({})).toBe(1);
    });

    it('rolls everything back on a throw, and other contexts never see the uncommitted rows', async () => {
      const likes = store.collection(Likes);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const outsideRead = gate.then(() => likes.count({})); // registered outside: runs outside the transaction
      let seenInside = -1;
      await expect(
        store.transaction(async () => {
          await likes.insert({ reviewId: 'r', userId: 'u', created_at: 1 });
          seenInside = await likes.count({});
          release();
          expect(await outsideRead).toBe(0);
          throw new Error('change failed');
        }),
      ).rejects.toThrow('change failed');
      expect(seenInside).toBe(1);
      expect(await likes.count({})).toBe(0);
    });

    it('a duplicate key refused inside it leaves the transaction usable (a savepoint per write)', async () => {
      const likes = store.collection(Likes);
      await likes.insert({ reviewId: 'r', userId: 'u', created_at: 1 });
      await store.transaction(async () => {
        await expect(likes.insert({ reviewId: 'r', userId: 'u', created_at: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
        await likes.insert({ reviewId: 'r', userId: 'v', created_at: 3 });
        await store.collection(Outbox).insert({ type: 'like.created' });
      });
      expect(await likes.count({})).toBe(2);
      expect(await store.collection(Outbox).count({})).toBe(1);
    });

    it('two upserts of one new document at once, in one transaction or two, both apply (one inserts, the other updates it)', async () => {
      const likes = store.collection(Likes);
      const upsert = (reviewId: string, tag: string) => likes.updateOne({ _id: `up-${reviewId}` }, { $set: { reviewId, userId: tag }, $inc: { created_at: 1 } }, { upsert: true });
      await store.transaction(() => Promise.all([upsert('r1', 'a'), upsert('r1', 'b')]));
      await Promise.all([store.transaction(() => upsert('r2', 'a')), store.transaction(() => upsert('r2', 'b'))]);
      expect((await likes.findById('up-r1'))?.created_at).toBe(2);
      expect((await likes.findById('up-r2'))?.created_at).toBe(2);
    });

    it('takes a savepoint only for an update that writes a field of a unique index, and that one stays refusable', async () => {
      const likes = store.collection(Likes);
      await likes.insertMany([
        { _id: 'sp1', reviewId: 'r', userId: 'a', created_at: 0 },
        { _id: 'sp2', reviewId: 'r', userId: 'b', created_at: 0 },
      ]);
      const { sent, restore } = recordStatements();
      try {
        await store.transaction(async () => {
          await likes.updateOne({ _id: 'sp1' }, { $set: { tags: ['x'] }, $inc: { created_at: 1 } });
          expect(sent.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(0);
          await expect(likes.updateOne({ _id: 'sp1' }, { $set: { userId: 'b' } })).rejects.toBeInstanceOf(DuplicateKeyError);
          expect(sent.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(1);
          await likes.updateOne({ _id: 'sp2' }, { $inc: { created_at: 5 } });
        });
      } finally {
        restore();
      }
      expect(await likes.findById('sp1')).toMatchObject({ userId: 'a', tags: ['x'], created_at: 1 });
      expect((await likes.findById('sp2'))?.created_at).toBe(5);
    });

    it('inserts a batch inside a transaction without a savepoint: all of it, or on a duplicate (in the table or in the batch) none, the transaction going on', async () => {
      const likes = store.collection(Likes);
      await likes.insert({ _id: 'b0', reviewId: 'r', userId: 'taken', created_at: 0 });
      const { sent, restore } = recordStatements();
      try {
        await store.transaction(async () => {
          await likes.insertMany([
            { _id: 'b1', reviewId: 'r', userId: 'a', created_at: 1 },
            { _id: 'b2', reviewId: 'r', userId: 'b', created_at: 1 },
          ]);
          const refused = [
            [{ _id: 'b3', reviewId: 'r', userId: 'c', created_at: 2 }, { _id: 'b4', reviewId: 'r', userId: 'taken', created_at: 2 }], // a unique key in the table
            [{ _id: 'b5', reviewId: 'r', userId: 'd', created_at: 2 }, { _id: 'b0', reviewId: 'r', userId: 'e', created_at: 2 }], // an _id in the table
            [{ _id: 'b6', reviewId: 's', userId: 'f', created_at: 2 }, { _id: 'b7', reviewId: 's', userId: 'f', created_at: 2 }], // twice in the batch
          ];
          for (const batch of refused) await expect(likes.insertMany(batch)).rejects.toBeInstanceOf(DuplicateKeyError);
          await likes.insertMany([
            { _id: 'b8', reviewId: 'r', userId: 'c', created_at: 3 },
            { _id: 'b9', reviewId: 'r', userId: 'd', created_at: 3 },
          ]);
        });
      } finally {
        restore();
      }
      expect(sent.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(0);
      expect((await likes.find({})).map((d) => d._id).sort()).toEqual(['b0', 'b1', 'b2', 'b8', 'b9']);
    });

    it('sends the writes left to the commit in the COMMIT\'s round trip, and an update that may be refused at once', async () => {
      const likes = store.collection(Likes);
      const outbox = store.collection(Outbox);
      await outbox.insert({ _id: 'published', type: 'like.created' });
      await likes.insert({ _id: 'wc0', reviewId: 'wc-shape', userId: 'z', created_at: 0, tags: ['known to hold arrays'] });
      const { sent, restore } = recordStatements();
      try {
        await store.transaction(async () => {
          await likes.insert({ _id: 'wc1', reviewId: 'wc', userId: 'a', created_at: 1 });
          await outbox.writeWithCommit({ insert: [{ _id: 'next', type: "it's \\ here" }], remove: ['published'] });
          await likes.updateWithCommit({ reviewId: 'wc', userId: { $ne: 'b' } }, { $inc: { created_at: 1 }, $set: { tags: ['t'] } });
          // Writes a field of a unique index: it might be refused, so it is not left to the commit.
          await likes.updateWithCommit({ _id: 'wc1' }, { $set: { userId: 'c' } });
        });
      } finally {
        restore();
      }
      // BEGIN goes with the first statement; the statements left to the commit are prepared on the connection the first time, on their own.
      const trips = withoutPrepares(sent);
      expect(trips).toHaveLength(5);
      expect(trips[0]).toMatch(/^BEGIN; INSERT INTO .* VALUES \(\$1, \$2::jsonb\)/s);
      expect(trips.slice(1, 4)).toEqual(['SAVEPOINT sp_1', expect.stringMatching(/^UPDATE .*FOR UPDATE/s), 'RELEASE SAVEPOINT sp_1']);
      expect(trips[4]).toMatch(/^INSERT INTO .*; DELETE FROM .*; UPDATE .*; COMMIT$/s);
      expect(await outbox.find({})).toEqual([{ _id: 'next', type: "it's \\ here" }]);
      expect(await likes.findById('wc1')).toMatchObject({ userId: 'c', created_at: 2, tags: ['t'] });
    });

    it('prepares a statement with parameters once per connection, and one with many parameters not at all', async () => {
      const likes = store.collection(Likes);
      await likes.insertMany(Array.from({ length: 3 }, (_, i) => ({ _id: `prep${i}`, reviewId: 'prep', userId: `u${i}`, created_at: i })));
      const many = Array.from({ length: 17 }, (_, i) => i);
      const manySql = `SELECT ${many.map((i) => `$${i + 1}::int`).join(' + ')} AS total`;
      const prepared = await store.transaction(async () => {
        for (let i = 0; i < 3; i++) expect(await likes.find({ reviewId: 'prep', userId: `u${i}` })).toHaveLength(1);
        expect(await store.query<{ total: number }>(manySql, many)).toEqual([{ total: 136 }]);
        return store.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
      });
      // The three finds share one prepared statement; the sum's seventeen parameters are not kept.
      expect(prepared.filter((p) => p.statement.startsWith('SELECT doc FROM') && p.statement.includes("(doc -> 'reviewId') = $1::jsonb) AND ((doc -> 'userId')"))).toHaveLength(1);
      expect(prepared.filter((p) => p.statement === manySql)).toHaveLength(0);
    });

    it('sends a first statement without a name after BEGIN in one round trip too, and rolls back a failed first statement', async () => {
      const likes = store.collection(Likes);
      // Seventeen parameters: never named, so never prepared; over 64 KB of values.
      const long = Array.from({ length: 17 }, (_, i) => `${i}`.padEnd(4_000, 'x'));
      const longSql = `SELECT length(${long.map((_, i) => `$${i + 1}::text`).join(' || ')}) AS n`;
      const { sent, restore } = recordStatements();
      try {
        await store.transaction(async () => {
          expect(await store.query<{ n: number }>(longSql, long)).toEqual([{ n: 68_000 }]);
          await likes.insert({ _id: 'long', reviewId: 'big', userId: 'x', created_at: 0 });
        });
        await expect(
          store.transaction(async () => {
            expect(await store.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
            await likes.insert({ _id: 'after-failure', reviewId: 'big', userId: 'y', created_at: 0 });
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
      } finally {
        restore();
      }
      expect(sent[0]).toBe(`BEGIN; ${longSql}`);
      expect(sent).toContain('BEGIN; SELECT 1 AS one');
      expect(sent[sent.length - 1]).toBe('ROLLBACK');
      expect((await likes.find({ reviewId: 'big' })).map((l) => l._id)).toEqual(['long']);
    });

    it('sends a first statement prepared on its connection after BEGIN in one round trip, keeping its plan, and rolls it back', async () => {
      const likes = store.collection(Likes);
      const { sent, restore } = recordStatements();
      try {
        // The pool hands its last idle connection back each time: the insert outside a transaction prepares the statement on it.
        await likes.insert({ _id: 'pb', reviewId: 'pb', userId: 'u', created_at: 0 });
        for (let i = 0; i < 3; i++) await store.transaction(() => likes.insert({ _id: `pb${i}`, reviewId: 'pb', userId: `u${i}`, created_at: i }));
        await expect(
          store.transaction(async () => {
            await likes.insert({ _id: 'pb-never', reviewId: 'pb', userId: 'never', created_at: 9 });
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
      } finally {
        restore();
      }
      const firsts = sent.filter((sql) => sql.includes('INSERT INTO'));
      expect(firsts).toEqual([expect.stringMatching(FIRST_INSERT), ...Array(4).fill(expect.stringMatching(new RegExp(`^BEGIN; ${FIRST_INSERT.source.slice(1)}`, 's')))]);
      expect(sent).not.toContain('BEGIN');
      expect((await likes.find({ reviewId: 'pb' })).map((l) => l._id).sort()).toEqual(['pb', 'pb0', 'pb1', 'pb2']);
    });

    it('is one round trip when every write is left to the commit: BEGIN goes with it; a rollback before it sends nothing', async () => {
      const likes = store.collection(Likes);
      await likes.insert({ _id: 'one1', reviewId: 'one', userId: 'a', created_at: 0 });
      const { sent, restore } = recordStatements();
      try {
        await store.transaction(async () => {
          await likes.writeWithCommit({ insert: [{ _id: 'one2', reviewId: 'one', userId: 'b', created_at: 0 }] });
          await likes.updateWithCommit({ reviewId: 'one' }, { $inc: { created_at: 1 } });
        });
        await expect(
          store.transaction(async () => {
            await likes.updateWithCommit({ reviewId: 'one' }, { $inc: { created_at: 10 } });
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
      } finally {
        restore();
      }
      expect(withoutPrepares(sent)).toEqual([expect.stringMatching(/^BEGIN; INSERT INTO .*; UPDATE .*; COMMIT$/s)]);
      expect((await likes.find({ reviewId: 'one' })).map((d) => d.created_at)).toEqual([1, 1]);
    });

    it('prepares a statement left to the commit once per connection, and sends it with the COMMIT after', async () => {
      const likes = store.collection(Likes);
      await likes.insert({ _id: 'again0', reviewId: 'again', userId: 'a', created_at: 0 });
      const { sent, restore } = recordStatements();
      try {
        for (let i = 1; i <= 3; i++) await store.transaction(() => likes.updateWithCommit({ reviewId: 'again' }, { $set: { created_at: i } }));
      } finally {
        restore();
      }
      // The pool hands its last idle connection back each time.
      expect(sent.map((sql) => sql.split(' ', 1)[0])).toEqual(['PREPARE', 'BEGIN;', 'BEGIN;', 'BEGIN;']);
      expect(sent[1]).toMatch(/^BEGIN; UPDATE .*; COMMIT$/s);
      expect((await likes.findById('again0'))?.created_at).toBe(3);
    });

    it('flips a like and moves its count in the round trip of BEGIN, the delete of what goes with it in the COMMIT\'s', async () => {
      const likes = store.collection(Likes);
      const counts = store.collection(Outbox);
      const counted = { collection: counts, id: 'review-1', field: 'like_count' };
      const like = { reviewId: 'review-1', userId: 'a', created_at: 1 };
      const match = { reviewId: 'review-1', userId: 'a' };
      await likes.insert({ reviewId: 'other', userId: 'a', created_at: 0 }); // its table known, so no savepoint
      const { sent, restore } = recordStatements();
      try {
        expect(await store.transaction(() => likes.flip(like, match, counted))).toEqual({ inserted: true, count: 1 });
        expect(
          await store.transaction(async () => {
            const unliked = await likes.flip(like, match, counted);
            await likes.deleteWithCommit({ reviewId: 'other', userId: 'a' });
            return unliked;
          }),
        ).toEqual({ inserted: false, count: 0 });
      } finally {
        restore();
      }
      // Each flip goes after BEGIN in one round trip (the first prepares it on the connection on its own before).
      expect(sent).toEqual([
        expect.stringMatching(/^PREPARE WITH ins AS \(INSERT INTO/s),
        expect.stringMatching(/^BEGIN; WITH ins AS \(INSERT INTO/s),
        'COMMIT',
        expect.stringMatching(/^BEGIN; WITH ins AS \(INSERT INTO/s),
        expect.stringMatching(/^PREPARE DELETE FROM .*"likes" WHERE/s),
        expect.stringMatching(/^DELETE FROM .*"likes" WHERE .*; COMMIT$/s),
      ]);
      expect(await likes.count({})).toBe(0);
      expect(await counts.findById('review-1')).toEqual({ _id: 'review-1', like_count: 0 });
    });

    it("flips with the writes of its outcome in the COMMIT's round trip: only that outcome's, the count where asked; a rollback writes none", async () => {
      const likes = store.collection(Likes);
      const outbox = store.collection(Outbox);
      const counted = { collection: outbox, id: 'review-2', field: 'like_count' };
      const match = { reviewId: 'review-2', userId: 'a' };
      await likes.insert({ reviewId: 'other-2', userId: 'a', created_at: 0 }); // the tables known: nothing to refuse
      await outbox.insert({ type: 'seen' });
      const event = (_id: string, type: string) => ({ _id, type, event: { likeCount: -1 } }) as BaseDoc;
      const flip = (n: number) =>
        likes.flipWithCommit!({ reviewId: 'review-2', userId: 'a', created_at: n }, match, counted, {
          inserted: [
            { collection: outbox, insert: event(`liked-${n}`, 'liked'), countAt: ['event', 'likeCount'] },
            { collection: likes, delete: { reviewId: 'other-2' } },
          ],
          deleted: [{ collection: outbox, insert: event(`unliked-${n}`, 'unliked'), countAt: ['event', 'likeCount'] }],
        });
      const { sent, restore } = recordStatements();
      const outcomes: unknown[] = [];
      try {
        for (const n of [1, 2]) outcomes.push(await (await store.transaction(() => flip(n)))!.outcome);
      } finally {
        restore();
      }
      expect(outcomes).toEqual([{ inserted: true, count: 1 }, { inserted: false, count: 0 }]);
      expect(withoutPrepares(sent)).toEqual([expect.stringMatching(/^BEGIN; WITH ins AS .*; COMMIT$/s), expect.stringMatching(/^BEGIN; WITH ins AS .*; COMMIT$/s)]);
      expect(await outbox.find({ type: { $in: ['liked', 'unliked'] } }, { sort: { _id: 1 } })).toEqual([
        { _id: 'liked-1', type: 'liked', event: { likeCount: 1 } },
        { _id: 'unliked-2', type: 'unliked', event: { likeCount: 0 } },
      ]);
      expect(await likes.count({ reviewId: 'other-2' })).toBe(0);

      let queued: Awaited<ReturnType<typeof flip>>;
      const thrown = store.transaction(async () => {
        queued = await flip(3);
        throw new Error('changed my mind');
      });
      await expect(thrown).rejects.toThrow('changed my mind');
      await expect(queued!.outcome).rejects.toThrow('changed my mind');
      expect(await likes.count(match)).toBe(0);
      expect(await outbox.findById('liked-3')).toBeNull();
      expect(await outbox.findById('review-2')).toEqual({ _id: 'review-2', like_count: 0 });
    });

    it('keeps the count equal to the rows under concurrent flips with the commit, each flip that happened with its one outcome row', async () => {
      const likes = store.collection(Likes);
      const outbox = store.collection(Outbox);
      const counted = { collection: outbox, id: 'review-4', field: 'like_count' };
      await likes.insert({ reviewId: 'other-4', userId: 'a', created_at: 0 });
      await outbox.insert({ type: 'seen' });
      const row = (type: string) => ({ _id: newId(), type }) as BaseDoc;
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const userId = `u${i % 10}`;
          const then = { inserted: [{ collection: outbox, insert: row('liked-4') }], deleted: [{ collection: outbox, insert: row('unliked-4') }] };
          const queued = await store.transaction(() => likes.flipWithCommit!({ reviewId: 'review-4', userId, created_at: i }, { reviewId: 'review-4', userId }, counted, then));
          return queued!.outcome;
        }),
      );
      const happened = outcomes.filter((o) => o !== null);
      expect(happened.length).toBeGreaterThanOrEqual(10);
      const counter = (await outbox.findById('review-4')) as (BaseDoc & { like_count: number }) | null;
      expect(await likes.count({ reviewId: 'review-4' })).toBe(counter?.like_count);
      expect(await outbox.count({ type: 'liked-4' })).toBe(happened.filter((o) => o!.inserted).length);
      expect(await outbox.count({ type: 'unliked-4' })).toBe(happened.filter((o) => !o!.inserted).length);
    });

    it('flips with the commit only where every part is plain SQL inside a transaction', async () => {
      const likes = store.collection(Likes);
      const counted = { collection: store.collection(Outbox), id: 'review-3', field: 'like_count' };
      const doc = { reviewId: 'review-3', userId: 'a', created_at: 0 };
      const then = { inserted: [], deleted: [] };
      expect(await likes.flipWithCommit!(doc, { reviewId: 'review-3', userId: 'a' }, counted, then)).toBeUndefined();
      // A filter SQL cannot express (a regular expression) for a delete that goes with it.
      const unplain = { inserted: [], deleted: [{ collection: likes, delete: { userId: { $regex: '^a' } } }] };
      expect(await store.transaction(() => likes.flipWithCommit!(doc, { reviewId: 'review-3', userId: 'a' }, counted, unplain))).toBeUndefined();
      expect(await likes.count({ reviewId: 'review-3' })).toBe(0);
    });

    it('keeps $inc exact when transactions and plain writes interleave', async () => {
      const likes = store.collection(Likes);
      const { _id } = await likes.insert({ reviewId: 'counter', userId: 'u', created_at: 0 });
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2
            ? store.transaction(async () => {
                await likes.updateOne({ _id }, { $inc: { created_at: 1 } });
                await store.collection(Outbox).insert({ type: `n${i}` });
              })
            : likes.updateOne({ _id }, { $inc: { created_at: 1 } }),
        ),
      );
      expect((await likes.findById(_id))?.created_at).toBe(40);
      expect(await store.collection(Outbox).count({})).toBe(20);
    });
    it('never sends a statement on its connection while another is running (pg@9 refuses that)', async () => {
      const likes = store.collection(Likes);
      const running = new Map<unknown, number>();
      let most = 0;
      const original = Client.prototype.query;
      const query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
        const answer = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
        running.set(this, (running.get(this) ?? 0) + 1);
        most = Math.max(most, running.get(this) ?? 0);
        const finished = () => running.set(this, (running.get(this) ?? 1) - 1);
        // A query object of several statements (postgres-round-trips.ts) answers through its callback.
        const pipeline = args[0] as { callback?: (...a: unknown[]) => void };
        if (!(answer instanceof Promise) && pipeline.callback) {
          const callback = pipeline.callback;
          pipeline.callback = (...a: unknown[]) => (finished(), callback(...a));
          return answer;
        }
        return answer.then((r) => (finished(), r), (e: unknown) => (finished(), Promise.reject(e)));
      } as never);
      try {
        await store.transaction(() =>
          Promise.all([likes.insert({ reviewId: 'q', userId: 'a', created_at: 1 }), likes.count({}), likes.find({ reviewId: 'q' }), likes.insert({ reviewId: 'q', userId: 'b', created_at: 2 }), likes.count({ reviewId: 'q' })]),
        );
      } finally {
        query.mockRestore();
      }
      expect(most).toBe(1);
      expect(await likes.count({ reviewId: 'q' })).toBe(2);
    });
  });

  describe('several processes on one schema', () => {
    it('boot at once (schema changes take turns) and learn from each other which fields hold arrays', async () => {
      const others = [0, 1, 2].map(() => new PostgresStore({ url: server.url, schema }));
      await Promise.all(others.map((s) => s.open([Likes, Outbox])));
      try {
        const [a, b] = others;
        // b reads first, while `tags` is unknown to it (a scalar to its eyes).
        expect(await b.collection(Likes).count({ tags: 'x' })).toBe(0);
        await a.collection(Likes).insert({ reviewId: 'r', userId: 'u', created_at: 1, tags: ['x', 'y'] });
        const deadline = Date.now() + 2000;
        while (b.shapeOf('likes', 'tags') !== 'array' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(await b.collection(Likes).count({ tags: 'y' })).toBe(1);
        expect(await b.collection(Likes).count({ tags: { $in: ['x', 'z'] } })).toBe(1);
      } finally {
        await Promise.all(others.map((s) => s.close()));
      }
    });
  });

  it('opens a schema already in its declared shape without DDL, so a writer holding its table never blocks a boot', async () => {
    const writer = new Client({ connectionString: server.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(`INSERT INTO ${store.table('likes')} (_id, doc) VALUES ($1, '{}'::jsonb)`, [newId()]);
      // Any ALTER TABLE (even IF EXISTS, a no-op) or CREATE INDEX would wait for this transaction.
      // Blocked, it would wait for as long as the writer's transaction: 10 s tells the two apart on a busy machine.
      const other = new PostgresStore({ url: server.url, schema });
      const opened = other.open([Likes, Outbox]).then(() => 'opened');
      const late = new Promise((resolve) => setTimeout(() => resolve('blocked'), 10_000).unref());
      try {
        expect(await Promise.race([opened, late])).toBe('opened');
      } finally {
        await writer.query('ROLLBACK');
        await opened.catch(() => undefined);
        await other.close();
      }
    } finally {
      await writer.end();
    }
  });

  it('a statement cut by the server (admin_shutdown, 57P01) fails with StoreUnavailableError', async () => {
    const killer = new Client({ connectionString: server.url });
    await killer.connect();
    try {
      const sleeping = store.query(`SELECT pg_sleep(10), 'marker-57p01'`).catch((err: unknown) => err);
      const deadline = Date.now() + 8000;
      let killed = 0;
      while (killed === 0 && Date.now() < deadline) {
        const { rows } = await killer.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%marker-57p01%' AND pid <> pg_backend_pid()`,
        );
        killed = rows.length;
      }
      expect(killed).toBe(1);
      const error = await sleeping;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toMatch(/terminating connection/);
      // The pool replaced the connection: the next statement works.
      expect(await store.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await killer.end();
    }
  });

  it('a transaction whose connection the server cuts while it waits on the caller fails, and the process lives on', async () => {
    const killer = new Client({ connectionString: server.url });
    await killer.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const cut = store
        .transaction(async () => {
          await store.query(`SELECT 'marker-idle-tx'`);
          // Idle in transaction: the server ends this connection between two statements.
          await killer.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%marker-idle-tx%' AND pid <> pg_backend_pid()`);
          await new Promise((r) => setTimeout(r, 300));
          return store.query('SELECT 1 AS one');
        })
        .catch((err: unknown) => err);
      expect(await cut).toBeInstanceOf(StoreUnavailableError);
      expect(uncaught).toEqual([]);
      expect(await store.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await killer.end();
    }
  });

  it('answers a page of one member through the declared index, in its order', async () => {
    const likes = store.collection(Likes);
    await likes.insertMany(Array.from({ length: 2000 }, (_, i) => ({ reviewId: `r${i}`, userId: `u${i % 50}`, created_at: i })));
    await store.query(`ANALYZE ${store.table('likes')}`);
    const page = await likes.find({ userId: 'u7' }, { sort: { created_at: -1 }, limit: 3 });
    expect(page.map((d) => d.created_at)).toEqual([1957, 1907, 1857]);
    const plan = (await store.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT doc FROM ${store.table('likes')} WHERE (doc -> 'userId') = '"u7"'::jsonb ORDER BY (doc -> 'created_at') DESC NULLS LAST LIMIT 3`,
    ))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Index Scan using "?ix_/);
    expect(plan).not.toMatch(/Sort/);
  });

  it('rides out a server restart: operations fail fast while it is down, then work again on new connections', async () => {
    const port = server.port;
    const dataDir = server.dataDir;
    const likes = store.collection(Likes);
    await likes.insert({ reviewId: 'before', userId: 'u', created_at: 1 });
    await server.kill();
    // A read of the turn the server died in may still believe the turn's look at the versions (a
    // cached count): the reads of the next turn look again, and find the server gone.
    await new Promise((resolve) => setImmediate(resolve));
    const started = Date.now();
    // Unavailable (answered 503 by the platform), not an unknown failure (500).
    await expect(likes.count({})).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(likes.insert({ reviewId: 'down', userId: 'u', created_at: 1 })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await store.isHealthy()).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
    server = await startPostgresServer({ port, dataDir });
    await likes.insert({ reviewId: 'after', userId: 'u', created_at: 2, tags: ['t'] });
    expect(await store.isHealthy()).toBe(true);
    expect((await likes.find({}, { sort: { created_at: 1 } })).map((d) => d.reviewId)).toEqual(['before', 'after']);
    // The shapes listener reconnected too: another process's new array field still reaches this one.
    const other = new PostgresStore({ url: server.url, schema });
    await other.open([]);
    await other.collection(Outbox).insert({ type: 'x', labels: ['a'] } as never);
    const deadline = Date.now() + 5000;
    while (store.shapeOf('outbox', 'labels') !== 'array' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(store.shapeOf('outbox', 'labels')).toBe('array');
  });

  it('tells at open whether every process before closed the schema cleanly (a live replica or one cut off at close counts as not)', async () => {
    // Its own server: the restart below must not take the shared one down if it fails.
    let own = await startPostgresServer();
    const opened = async () => {
      const s = new PostgresStore({ url: own.url, schema: 'marks' });
      await s.open([Likes]);
      return s;
    };
    try {
      const first = await opened();
      expect(first.closedCleanlyBefore()).toBe(true);
      const replica = await opened();
      expect(replica.closedCleanlyBefore()).toBe(false);
      await replica.close();
      await first.close();
      const afterClean = await opened();
      expect(afterClean.closedCleanlyBefore()).toBe(true);
      // The server goes away under it: its close cannot say so, as a process killed with the schema open.
      await own.kill();
      await afterClean.close();
      own = await startPostgresServer({ port: own.port, dataDir: own.dataDir });
      const afterCrash = await opened();
      expect(afterCrash.closedCleanlyBefore()).toBe(false);
      await afterCrash.close();
      // The dead process's mark went with the boot that saw it: the next clean close counts again.
      const next = await opened();
      expect(next.closedCleanlyBefore()).toBe(true);
      await next.close();
    } finally {
      await own.stop();
    }
  });

  describe('document and count caches, coherent across processes (cacheById, cacheCounts)', () => {
    interface Note extends BaseDoc {
      owner: string;
      n: number;
      read?: boolean;
    }
    const Cached = defineCollection<Note>('cached_notes', [{ fields: { owner: 1 }, unique: true }], { cacheById: 100, cacheCounts: 10 });
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    /** Two processes on one schema (a replica each), and a count of the statements the first sends outside transactions. */
    async function twoReplicas() {
      const schemaOf = `c_${newId()}`;
      const [one, two] = [0, 1].map(() => new PostgresStore({ url: server.url, schema: schemaOf }));
      await one.open([Cached]);
      await two.open([Cached]);
      type Queries = { query: (...args: unknown[]) => unknown };
      const { pool, lookPool } = one as unknown as { pool: Queries; lookPool: Queries };
      const sent: string[] = [];
      /** How many version rows each look read. */
      const lookRows: number[] = [];
      const query = pool.query.bind(pool);
      const look = lookPool.query.bind(lookPool);
      lookPool.query = (...args: unknown[]) => {
        const config = args[0] as string | { text: string };
        const text = typeof config === 'string' ? config : config.text;
        sent.push(text);
        const answer = look(...args) as Promise<{ rows: unknown[] }>;
        return text.includes('._versions') ? answer.then((result) => (lookRows.push(result.rows.length), result)) : answer;
      };
      /** While set, the first replica's document reads are answered only once it settles (they run at once: `ran` is the last one's answer). */
      let held: Promise<void> | undefined;
      let ran: Promise<unknown> | undefined;
      pool.query = (...args: unknown[]) => {
        const config = args[0] as string | { text: string };
        const text = typeof config === 'string' ? config : config.text;
        sent.push(text);
        const answer = query(...args) as Promise<unknown>;
        const gate = held;
        if (!gate || !text.startsWith('SELECT doc')) return answer;
        ran = answer;
        return answer.then(async (rows) => (await gate, rows));
      };
      const reads = () => sent.filter((sql) => sql.startsWith('SELECT doc') || sql.startsWith('SELECT count')).length;
      const hold = (gate?: Promise<void>) => {
        held = gate;
        ran = undefined;
      };
      /** The held read's own answer, once it was sent. */
      const heldReadRan = async () => {
        while (!ran) await nextTurn();
        await ran;
      };
      const looks = () => sent.filter((sql) => sql.includes('._versions') && sql.startsWith('SELECT')).length;
      return { one, two, reads, looks, lookRows, hold, heldReadRan, close: () => Promise.all([one.close(), two.close()]) };
    }

    it("a look reads the version rows of other processes' backends only: its own commits leave it none to read", async () => {
      const { one, two, lookRows, close } = await twoReplicas();
      try {
        const notes = one.collection(Cached);
        const { _id } = await notes.insert({ owner: 'ann', n: 0 });
        await notes.updateOne({ _id }, { $inc: { n: 1 } });
        await notes.findById(_id); // fills the cache: a look is taken only to believe what it holds
        await nextTurn();
        lookRows.length = 0;
        expect((await notes.findById(_id))?.n).toBe(1);
        expect(lookRows).toEqual([0]);
        await two.collection(Cached).updateOne({ _id }, { $inc: { n: 1 } });
        await nextTurn();
        expect((await notes.findById(_id))?.n).toBe(2);
        expect(lookRows[1]).toBeGreaterThan(0);
      } finally {
        await close();
      }
    });

    it("withOneLook: the reads of one scope, a transaction's among them, share one look across turns; a commit before the scope began is seen", async () => {
      const { one, two, looks, close } = await twoReplicas();
      try {
        const notes = one.collection(Cached);
        const { _id } = await notes.insert({ owner: 'ann', n: 0 });
        await notes.findById(_id);
        await two.collection(Cached).updateOne({ _id }, { $inc: { n: 1 } });
        await nextTurn();
        const before = looks();
        const seen = await one.withOneLook(async () => {
          const first = (await notes.findById(_id))?.n;
          await nextTurn();
          await nextTurn();
          const second = (await notes.findOne({ owner: 'ann' }))?.n;
          await nextTurn();
          return [first, second, await one.transaction(async () => (await notes.findById(_id))?.n)];
        });
        expect(seen).toEqual([1, 1, 1]);
        expect(looks()).toBe(before + 1);
        // Outside a scope each turn looks again.
        await notes.findById(_id);
        await nextTurn();
        await notes.findById(_id);
        expect(looks()).toBe(before + 3);
      } finally {
        await close();
      }
    });

    it('answers reads by id and by unique key from memory, and sees another replica\'s commit on the next turn', async () => {
      const { one, two, reads, close } = await twoReplicas();
      const notes = one.collection(Cached);
      const { _id } = await notes.insert({ owner: 'ann', n: 0 });
      expect((await notes.findById(_id))?.n).toBe(0);
      expect((await notes.findOne({ owner: 'ann' }))?._id).toBe(_id);
      expect(await notes.findOne({ owner: 'bea' })).toBeNull();
      const before = reads();
      expect((await notes.findById(_id))?.n).toBe(0);
      expect(await notes.findOne({ owner: 'bea' })).toBeNull(); // known absent
      expect(reads()).toBe(before);
      // The other replica writes, outside a transaction and inside one: each commit is seen once its reply is.
      await two.collection(Cached).updateOne({ _id }, { $inc: { n: 1 } });
      await nextTurn();
      expect((await notes.findById(_id))?.n).toBe(1);
      await two.transaction(async () => {
        await two.collection(Cached).insert({ owner: 'bea', n: 7 });
        await two.collection(Cached).updateOne({ _id }, { $push: { tags: 'x' } }); // a mingo update: its own BEGIN … COMMIT inside this one
      });
      await nextTurn();
      expect((await notes.findOne({ owner: 'bea' }))?.n).toBe(7);
      expect((await notes.findById(_id)) as unknown).toMatchObject({ tags: ['x'] });
      await two.collection(Cached).updateOne({ _id }, { $push: { tags: 'y' } }); // a mingo update alone
      await two.collection(Cached).deleteMany({ owner: 'bea' });
      await nextTurn();
      expect((await notes.findById(_id)) as unknown).toMatchObject({ tags: ['x', 'y'] });
      expect(await notes.findOne({ owner: 'bea' })).toBeNull();
      await close();
    });

    it('forgets only what its own commits wrote, and everything once another replica\'s commit is seen', async () => {
      const { one, two, reads, close } = await twoReplicas();
      const notes = one.collection(Cached);
      const [a, b] = await notes.insertMany([
        { owner: 'a', n: 1 },
        { owner: 'b', n: 2 },
      ]);
      await notes.find({ _id: { $in: [a._id, b._id] } });
      let before = reads();
      await notes.updateOne({ _id: a._id }, { $set: { n: 10 } });
      await one.transaction(() => notes.deleteOne({ owner: 'zz' }));
      await nextTurn();
      expect((await notes.findById(b._id))?.n).toBe(2); // still cached: this process's own commit touched only a
      expect(reads() - before).toBe(0);
      expect((await notes.findById(a._id))?.n).toBe(10);
      expect(reads() - before).toBe(1);
      await two.collection(Cached).updateOne({ _id: a._id }, { $set: { n: 11 } });
      await nextTurn();
      before = reads();
      expect((await notes.findById(b._id))?.n).toBe(2); // another replica's commit: the collection was forgotten whole
      expect((await notes.findById(a._id))?.n).toBe(11);
      expect(reads() - before).toBe(2);
      await close();
    });

    it('looks at the versions only to believe what the cache holds, once per turn', async () => {
      const { one, reads, looks, close } = await twoReplicas();
      const notes = one.collection(Cached);
      const [a, b] = await notes.insertMany([
        { owner: 'a', n: 1 },
        { owner: 'b', n: 2 },
      ]);
      await nextTurn();
      const [readsBefore, looksBefore] = [reads(), looks()];
      await notes.findById(a._id); // nothing cached: the server, no look
      expect([reads() - readsBefore, looks() - looksBefore]).toEqual([1, 0]);
      await Promise.all([notes.findById(a._id), notes.findById(a._id)]); // cached: one look for the turn
      expect([reads() - readsBefore, looks() - looksBefore]).toEqual([1, 1]);
      await nextTurn();
      await notes.find({ _id: { $in: [a._id, b._id] } }); // one of them cached: a look, then b from the server
      expect([reads() - readsBefore, looks() - looksBefore]).toEqual([2, 2]);
      await close();
    });

    it('looks once per transaction, however many turns its cached reads span, and a later transaction looks again', async () => {
      const { one, two, looks, close } = await twoReplicas();
      const notes = one.collection(Cached);
      const { _id } = await notes.insert({ owner: 'a', n: 1 });
      await notes.findById(_id);
      await nextTurn();
      const before = looks();
      await one.transaction(async () => {
        for (let i = 0; i < 3; i++) {
          expect((await notes.findById(_id))?.n).toBe(1);
          await nextTurn();
        }
      });
      expect(looks() - before).toBe(1);
      await two.collection(Cached).updateOne({ _id }, { $set: { n: 2 } });
      await one.transaction(async () => expect((await notes.findById(_id))?.n).toBe(2));
      expect(looks() - before).toBe(2);
      await close();
    });

    it('looks on a connection of its own: transactions holding every pooled connection never wait for the look', async () => {
      const small = new PostgresStore({ url: server.url, schema: `c_${newId()}`, pool: { max: 2, connectTimeoutMs: 2000 } });
      await small.open([Cached]);
      const notes = small.collection(Cached);
      const { _id } = await notes.insert({ owner: 'ann', n: 0 });
      await notes.findById(_id);
      await nextTurn();
      // Each holds a pooled connection and reads a cached document, which needs this turn's look.
      const done = await Promise.all(
        Array.from({ length: 6 }, () => small.transaction(async () => (await notes.findById(_id))?.n)),
      );
      expect(done).toEqual([0, 0, 0, 0, 0, 0]);
      await small.close();
    });

    it('keeps counts by filter until a write to the collection, here or by another replica', async () => {
      const { one, two, reads, close } = await twoReplicas();
      const notes = one.collection(Cached);
      await notes.insertMany([{ owner: 'a', n: 1, read: false }, { owner: 'b', n: 2, read: true }]);
      const unread = () => notes.count({ read: false });
      const before = reads();
      expect([await unread(), await unread(), reads() - before]).toEqual([1, 1, 1]);
      await notes.updateMany({}, { $set: { read: false } });
      expect([await unread(), await unread(), reads() - before]).toEqual([2, 2, 2]);
      await two.collection(Cached).insert({ owner: 'c', n: 3, read: false });
      await nextTurn();
      expect([await unread(), reads() - before]).toEqual([3, 3]);
      await close();
    });

    it('uses the cache inside a transaction until it writes the collection, and a rollback leaves nothing behind', async () => {
      const { one, reads, close } = await twoReplicas();
      const notes = one.collection(Cached);
      const { _id } = await notes.insert({ owner: 'ann', n: 0 });
      expect((await notes.findById(_id))?.n).toBe(0);
      const before = reads();
      await one
        .transaction(async () => {
          expect((await notes.findById(_id))?.n).toBe(0); // committed, and known: from the cache
          expect(reads()).toBe(before);
          await notes.updateOne({ _id }, { $set: { n: 1 } });
          expect((await notes.findById(_id))?.n).toBe(1); // its own write, read inside it
          expect(reads()).toBe(before + 1);
          expect(await notes.count({ n: 1 })).toBe(1);
          throw new Error('undo');
        })
        .catch(() => undefined);
      expect((await notes.findById(_id))?.n).toBe(0);
      expect(await notes.count({ n: 1 })).toBe(0);
      await close();
    });

    it('keeps nothing a read found before another replica\'s commit when a later look already emptied the cache', async () => {
      const { one, two, hold, heldReadRan, close } = await twoReplicas();
      const notes = one.collection(Cached);
      const { _id } = await notes.insert({ owner: 'ann', n: 0 });
      let release!: () => void;
      hold(new Promise<void>((resolve) => (release = resolve)));
      const early = notes.findById(_id); // finds n 0, answered late
      await heldReadRan();
      hold(undefined);
      await two.collection(Cached).updateOne({ _id }, { $set: { n: 1 } });
      await nextTurn();
      expect((await notes.findById(_id))?.n).toBe(1); // the look saw the commit; this read fills the cache
      release();
      expect((await early)?.n).toBe(0);
      await nextTurn();
      expect((await notes.findById(_id))?.n).toBe(1);
      await close();
    });

    it('never serves a document older than a write whose reply came before the read, whichever replica wrote it (200 rounds)', async () => {
      const { one, two, close } = await twoReplicas();
      const [a, b] = [one.collection(Cached), two.collection(Cached)];
      const { _id } = await a.insert({ owner: 'ann', n: 0 });
      // Readers keep both caches warm and racing: reads begun before a commit end after it.
      let reading = true;
      const readers = [a, b].map(async (notes) => {
        while (reading) await notes.findById(_id);
      });
      for (let n = 1; n <= 200; n++) {
        const [writer, reader] = n % 2 ? [b, a] : [a, b];
        await writer.updateOne({ _id }, { $set: { n } });
        expect((await reader.findById(_id))?.n).toBe(n);
        expect((await writer.findById(_id))?.n).toBe(n);
      }
      reading = false;
      await Promise.all(readers);
      await close();
    });
  });

  it('reports unhealthy once closed', async () => {
    const other = new PostgresStore({ url: server.url, schema });
    await other.open([]);
    expect(await other.isHealthy()).toBe(true);
    await other.close();
    expect(await other.isHealthy()).toBe(false);
  });
});
