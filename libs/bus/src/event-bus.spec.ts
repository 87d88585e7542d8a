import { AnyEventEnvelope } from '@app/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCollection, SqliteStore, Store } from '@app/store';
import { probeStore } from '@app/testing';
import { EventBus, OneOfChange, PlannedEvent } from './event-bus';
import { MemoryTransport } from './memory/memory-transport';
import { OutboxDoc, outboxCollection } from './outbox.collection';

interface FollowRow {
  _id: string;
  follower_id: string;
  status: string;
}
const follows = defineCollection<FollowRow>('follows');

/** Never settles: the process is killed while it waits. */
const forever = () => new Promise<never>(() => undefined);

/** A bus whose publishes hang (killed before the bus took the event) or fail (bus down). */
class StuckTransport extends MemoryTransport {
  constructor(private readonly mode: 'hang' | 'fail') {
    super();
  }

  override async publish(): Promise<never> {
    if (this.mode === 'fail') throw new Error('bus down');
    return forever();
  }
}

function followCreated(id: string, present = true): PlannedEvent<'follow.created'> {
  return {
    type: 'follow.created',
    payload: { followerId: 'ada', followeeId: 'bob' },
    key: 'ada',
    proof: { collection: follows, match: { _id: id, status: 'following' }, present },
  };
}

/** The same SQLite store seen through a port without transactions, as MongoDB's is: emitWith takes the intent path. */
function withoutTransactions(store: SqliteStore): Store {
  return {
    engine: 'mongo',
    collection: (def) => store.collection(def),
    open: (defs) => store.open(defs),
    isHealthy: () => store.isHealthy(),
    close: () => store.close(),
  };
}

describe.each([
  ['the change and its outbox row in one SQLite transaction', true],
  ['an intent with a proof (a store without transactions, as MongoDB)', false],
])('EventBus: an event and its change never part ways: %s', (_label, transactional) => {
  let dir: string;
  let store: Store;
  let bus: MemoryTransport;
  let delivered: AnyEventEnvelope[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'event-bus-'));
    const sqlite = new SqliteStore({ file: join(dir, 'bus.sqlite') });
    store = transactional ? sqlite : withoutTransactions(sqlite);
    await store.open([outboxCollection, follows]);
    bus = new MemoryTransport();
    delivered = [];
    await bus.subscribe({
      group: 'probe',
      consumer: 'probe',
      types: ['follow.created', 'follow.removed'],
      handler: async (event) => void delivered.push(event),
    });
  });

  afterEach(async () => {
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = () => store.collection(follows);
  const outbox = () => store.collection(outboxCollection).find({});
  /** A fresh process on the same data: its relay runs at boot. */
  const restart = async () => {
    const fresh = new EventBus(bus, store);
    const published = await fresh.relay(0);
    await bus.drain();
    await new Promise((r) => setImmediate(r));
    await fresh.dropPublished();
    return published;
  };

  it('publishes once the change is done and keeps no row', async () => {
    const events = new EventBus(bus, store);
    const row = await events.emitWith(followCreated('f1'), () =>
      rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }),
    );
    await bus.drain();
    await until(async () => (await outbox()).length === 0);

    expect(row._id).toBe('f1');
    expect(delivered.map((e) => e.type)).toEqual(['follow.created']);
  });

  it('drops the event when the change finds nothing to do or throws', async () => {
    const events = new EventBus(bus, store);
    expect(await events.emitWith(followCreated('f1'), async () => 0)).toBe(0);
    await expect(
      events.emitWith(followCreated('f2'), async () => {
        throw new Error('duplicate key');
      }),
    ).rejects.toThrow('duplicate key');
    await bus.drain();

    expect(delivered).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it('under test, refuses a proof that does not hold after its change (it would drop the event after a crash)', async () => {
    const events = new EventBus(bus, store);
    await expect(
      events.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'pending' })),
    ).rejects.toThrow('The proof of follow.created does not hold');
    expect(delivered).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  if (transactional) {
    it('a change that throws after writing rolls back its rows and leaves no outbox row', async () => {
      const events = new EventBus(bus, store);
      await expect(
        events.emitWith(followCreated('f1'), async () => {
          await rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' });
          throw new Error('second write failed');
        }),
      ).rejects.toThrow('second write failed');
      await bus.drain();
      expect(await rows().count({})).toBe(0);
      expect(await outbox()).toEqual([]);
      expect(delivered).toEqual([]);
    });

    it('a concurrent request sees neither the change nor its outbox row before the commit, and its own write is kept', async () => {
      const events = new EventBus(new StuckTransport('hang'), store);
      let proceed!: () => void;
      const held = new Promise<void>((r) => (proceed = r));
      let inside!: () => void;
      const changing = new Promise<void>((r) => (inside = r));
      void events.emitWith(followCreated('f1'), async () => {
        const row = await rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' });
        inside();
        await held;
        return row;
      });
      await changing;
      expect(await rows().count({})).toBe(0);
      expect(await outbox()).toEqual([]);
      const concurrent = rows().insert({ _id: 'f2', follower_id: 'bob', status: 'following' });
      proceed();
      await concurrent;
      await until(async () => (await outbox()).length === 1);
      expect((await rows().find({}, { sort: { _id: 1 } })).map((r) => r._id)).toEqual(['f1', 'f2']);
      expect(await outbox()).toEqual([expect.objectContaining({ committed: true })]);
    });
  }

  if (transactional) {
    it("emitOneOfEachWith: a change writes its outcome's outbox row; that event alone goes out after the commit, with the payload named", async () => {
      const events = new EventBus(bus, store);
      const planned: PlannedEvent<'follow.created' | 'follow.removed'>[] = [followCreated('f1'), { ...followCreated('f1', false), type: 'follow.removed' }];
      const settled = await events.emitOneOfEachWith([
        {
          planned,
          change: async (outboxRows, [, removedRow]) => {
            await rows().insert({ _id: 'f1', follower_id: 'ada', status: 'removed' });
            await outboxRows.writeWithCommit({ insert: [removedRow] });
            return { outcome: Promise.resolve('removed') };
          },
          chosen: (outcome) => (outcome === 'removed' ? { index: 1, payload: { followerId: 'ada', followeeId: 'carol' } } : null),
        },
      ]);
      await bus.drain();
      await until(async () => (await outbox()).length === 0);
      expect(settled).toEqual([{ result: 'removed' }]);
      expect(delivered.map((e) => [e.type, e.payload])).toEqual([['follow.removed', { followerId: 'ada', followeeId: 'carol' }]]);
      expect(await restart()).toBe(0);
    });

    it('emitOneOfEachWith: changes in one transaction, each announcing what its own outcome chose; one that throws takes them all back', async () => {
      const events = new EventBus(bus, store);
      const followed = (id: string, followeeId: string) => ({
        planned: [followCreated(id)],
        change: async (outboxRows: Parameters<OneOfChange<string>['change']>[0], [row]: OutboxDoc[]) => {
          await rows().insert({ _id: id, follower_id: 'ada', status: 'following' });
          await outboxRows.writeWithCommit({ insert: [row] });
          return { outcome: Promise.resolve(followeeId) };
        },
        chosen: (followee: string) => ({ index: 0, payload: { followerId: 'ada', followeeId: followee } }),
      });
      const probe = probeStore();
      try {
        expect(await events.emitOneOfEachWith([followed('f1', 'bob'), followed('f2', 'carol')])).toEqual([{ result: 'bob' }, { result: 'carol' }]);
        expect(probe.commits).toBe(1);
      } finally {
        probe.stop();
      }
      const failing = { ...followed('f4', 'erin'), change: async () => Promise.reject(new Error('refused')) };
      await expect(events.emitOneOfEachWith([followed('f3', 'dan'), failing])).rejects.toThrow('refused');
      await bus.drain();
      await until(async () => (await outbox()).length === 0);
      expect(delivered.map((e) => e.payload)).toEqual([
        { followerId: 'ada', followeeId: 'bob' },
        { followerId: 'ada', followeeId: 'carol' },
      ]);
      expect(await rows().findById('f3')).toBeNull();
      expect(await restart()).toBe(0);
    });

    it('emitOneOfEachWith: a change that could not queue its writes, or threw, announces nothing', async () => {
      const events = new EventBus(bus, store);
      const chosen = () => ({ index: 0, payload: { followerId: 'ada', followeeId: 'bob' } });
      expect(await events.emitOneOfEachWith([{ planned: [followCreated('f1')], change: async () => undefined, chosen }])).toEqual([undefined]);
      const failing = events.emitOneOfEachWith([
        {
          planned: [followCreated('f2')],
          change: async (outboxRows, [row]) => {
            await outboxRows.writeWithCommit({ insert: [row] });
            throw new Error('refused');
          },
          chosen,
        },
      ]);
      await expect(failing).rejects.toThrow('refused');
      await bus.drain();
      expect(delivered).toEqual([]);
      expect(await outbox()).toEqual([]);
      expect(await restart()).toBe(0);
    });
  }

  if (transactional) {
    it('drops a published row in the commit of the next change, or in one commit of its own soon after', async () => {
      const events = new EventBus(bus, store);
      const probe = probeStore();
      try {
        await events.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }));
        await bus.drain();
        await new Promise((r) => setImmediate(r));
        const first = delivered[0].id;
        expect((await outbox()).map((r) => r.event.id)).toEqual([first]);
        await events.emitWith(followCreated('f2'), () => rows().insert({ _id: 'f2', follower_id: 'ada', status: 'following' }));
        expect(probe.commits).toBe(2);
        const left = (await outbox()).map((r) => r.event.id);
        expect(left).toHaveLength(1);
        expect(left).not.toContain(first);
        await until(async () => (await outbox()).length === 0);
        expect(probe.commits).toBe(3);
      } finally {
        probe.stop();
      }
    });

    it("atomically: on a bus that takes several events at once, a committed unit's events go in one call, in order; refused, the relay sends them", async () => {
      const calls: string[][] = [];
      let refuse = false;
      const batching = Object.assign(Object.create(bus) as MemoryTransport, {
        publishAll: async (events: AnyEventEnvelope[]) => {
          calls.push(events.map((e) => e.key));
          if (refuse) throw new Error('bus down');
          for (const e of events) await bus.publish(e);
        },
      });
      const events = new EventBus(batching, store);
      const unit = (ids: string[]) =>
        events.atomically(async () => {
          for (const id of ids) await events.emitWith({ ...followCreated(id), key: id }, () => rows().insert({ _id: id, follower_id: 'ada', status: 'following' }));
        });
      await unit(['p1', 'p2', 'p3']);
      expect(calls).toEqual([['p1', 'p2', 'p3']]);
      await bus.drain();
      expect(delivered.map((e) => e.key)).toEqual(['p1', 'p2', 'p3']);
      refuse = true;
      await unit(['p4', 'p5']);
      refuse = false;
      expect(await events.relay(0)).toBe(2);
      await bus.drain();
      expect(delivered.map((e) => e.key)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    });

    it("atomically: the outbox rows of a unit's events go in one insert at its end, whatever emitted them", async () => {
      const events = new EventBus(bus, store);
      const probe = probeStore(store as SqliteStore);
      try {
        await events.atomically(async () => {
          for (const id of ['u1', 'u2', 'u3']) await events.emitWith(followCreated(id), () => rows().insert({ _id: id, follower_id: 'ada', status: 'following' }));
          await events.emitAllWith([followCreated('u4'), followCreated('u5')], () => rows().insertMany(['u4', 'u5'].map((_id) => ({ _id, follower_id: 'ada', status: 'following' }))));
        });
        // Four writes of the rows, one of the five outbox rows.
        expect(probe.writes).toBe(5);
      } finally {
        probe.stop();
      }
      await bus.drain();
      expect(delivered).toHaveLength(5);
      await until(async () => (await outbox()).length === 0);
    });

    it('atomically: one commit for the writes and events of a unit, published only after it commits; a throw leaves neither', async () => {
      const events = new EventBus(bus, store);
      const probe = probeStore();
      try {
        const seenAtPublish: number[] = [];
        await bus.subscribe({ group: 'check', consumer: 'check', types: ['follow.created'], handler: async () => void seenAtPublish.push(await rows().count({})) });
        await events.atomically(async () => {
          await events.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }));
          await bus.drain();
          expect(delivered).toEqual([]);
          await events.emitWith(followCreated('f2'), () => rows().insert({ _id: 'f2', follower_id: 'ada', status: 'following' }));
          await rows().insert({ _id: 'other', follower_id: 'x', status: 'pending' });
        });
        expect(probe.commits).toBe(1);
        await bus.drain();
        expect(delivered).toHaveLength(2);
        expect(seenAtPublish).toEqual([3, 3]);

        await expect(
          events.atomically(async () => {
            await events.emitWith(followCreated('f3'), () => rows().insert({ _id: 'f3', follower_id: 'ada', status: 'following' }));
            throw new Error('handler failed');
          }),
        ).rejects.toThrow('handler failed');
        await bus.drain();
        expect(delivered).toHaveLength(2);
        expect(await rows().findById('f3')).toBeNull();
        await until(async () => (await outbox()).length === 0);
      } finally {
        probe.stop();
      }
    });
  }

  it('after a crash between the change and the publish, the restart publishes the event once', async () => {
    const doomed = new EventBus(new StuckTransport('hang'), store);
    void doomed.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }));
    await until(async () => (await rows().count({})) === 1);

    expect(await restart()).toBe(1);
    expect(delivered.map((e) => [e.type, e.payload])).toEqual([['follow.created', { followerId: 'ada', followeeId: 'bob' }]]);
    expect(await outbox()).toEqual([]);
  });

  if (!transactional) it('after a crash before the change, the restart drops the intent: no event for a change that never was', async () => {
    const doomed = new EventBus(bus, store);
    void doomed.emitWith(followCreated('f1'), forever);
    await until(async () => (await outbox()).length === 1);

    expect(await restart()).toBe(0);
    expect(delivered).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  if (!transactional) it('proves a delete by the row being gone', async () => {
    await rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' });
    const removed: PlannedEvent<'follow.removed'> = {
      type: 'follow.removed',
      payload: { followerId: 'ada', followeeId: 'bob', wasPending: false },
      key: 'ada',
      proof: { collection: follows, match: { _id: 'f1' }, present: false },
    };
    const beforeDelete = new EventBus(bus, store);
    void beforeDelete.emitWith(removed, forever);
    await until(async () => (await outbox()).length === 1);
    expect(await restart()).toBe(0);

    const afterDelete = new EventBus(new StuckTransport('hang'), store);
    void afterDelete.emitWith(removed, () => rows().deleteOne({ _id: 'f1' }));
    await until(async () => (await rows().count({})) === 0);
    expect(await restart()).toBe(1);
    expect(delivered.map((e) => e.type)).toEqual(['follow.removed']);
  });

  it('a publish the bus refused is marked done, and the relay sends it even once a later change undid it', async () => {
    const events = new EventBus(new StuckTransport('fail'), store);
    await events.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }));
    expect(await outbox()).toEqual([expect.objectContaining({ committed: true })]);
    await rows().deleteOne({ _id: 'f1' }); // an unfollow: its own event follows this one

    expect(await restart()).toBe(1);
    expect(delivered.map((e) => e.type)).toEqual(['follow.created']);
  });

  it('a held in-process bus lets a boot-time relay wait for groups that subscribe later', async () => {
    const doomed = new EventBus(new StuckTransport('hang'), store);
    void doomed.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }));
    await until(async () => (await rows().count({})) === 1);
    const late: AnyEventEnvelope[] = [];
    bus.hold();
    const relayed = new EventBus(bus, store).relay(0);
    await new Promise((r) => setTimeout(r, 20));
    await bus.subscribe({ group: 'late', consumer: 'late', types: ['follow.created'], handler: async (e) => void late.push(e) });
    bus.release();

    expect(await relayed).toBe(1);
    await bus.drain();
    expect(late.map((e) => e.type)).toEqual(['follow.created']);
  });

  it('on the in-process bus, keeps the row until every group has handled the event, and the relay does not resend it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await bus.subscribe({ group: 'slow', consumer: 'slow', types: ['follow.created'], handler: () => held });
    const events = new EventBus(bus, store);
    await events.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }));

    expect(await outbox()).toHaveLength(1);
    expect(await events.relay(0)).toBe(0);
    release();
    await until(async () => (await outbox()).length === 0);
    expect(delivered).toHaveLength(1);
  });

  it('handledSoFar waits for every group to handle what was published before it, not what comes after', async () => {
    const releases: (() => void)[] = [];
    await bus.subscribe({ group: 'slow', consumer: 'slow', types: ['follow.created'], handler: () => new Promise<void>((r) => releases.push(r)) });
    const events = new EventBus(bus, store);
    await events.emitWith(followCreated('f1'), () => rows().insert({ _id: 'f1', follower_id: 'ada', status: 'following' }));
    let handled = false;
    const waiting = events.handledSoFar().then(() => (handled = true));
    await events.emitWith(followCreated('f2'), () => rows().insert({ _id: 'f2', follower_id: 'ada', status: 'following' }));

    await until(async () => releases.length === 1);
    expect(handled).toBe(false);
    releases[0]();
    await waiting; // resolved with the second event still held by the slow group
    await until(async () => releases.length === 2);
    let all = false;
    const waitingForAll = events.handledSoFar().then(() => (all = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(all).toBe(false);
    releases[1]();
    await waitingForAll;
    expect(delivered).toHaveLength(2);
  });
});

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in 2 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}
