import { AnyEventEnvelope } from '@app/contracts';
import { defineCollection, SqliteStore } from '@app/store';
import { EventBus, PlannedEvent } from './event-bus';
import { MemoryTransport } from './memory/memory-transport';
import { outboxCollection } from './outbox.collection';

interface Row {
  _id: string;
}
const rows = defineCollection<Row>('rows');

function created(id: string): PlannedEvent<'follow.created'> {
  return {
    type: 'follow.created',
    payload: { followerId: id, followeeId: 'bob' },
    key: id,
    proof: { collection: rows, match: { _id: id }, present: true },
  };
}

describe('EventBus.atomically: many changes in one transaction, their events after it commits', () => {
  let store: SqliteStore;
  let transport: MemoryTransport;
  let bus: EventBus;
  /** What a consumer saw, and whether each change was committed (visible to another context) when it did. */
  let seen: { id: string; committed: boolean }[];

  beforeEach(async () => {
    store = new SqliteStore();
    await store.open([rows, outboxCollection]);
    transport = new MemoryTransport();
    await transport.connect();
    bus = new EventBus(transport, store);
    seen = [];
    await transport.subscribe({
      group: 'g',
      consumer: 'c',
      types: ['follow.created'],
      handler: async (event: AnyEventEnvelope) => {
        const id = (event.payload as { followerId: string }).followerId;
        seen.push({ id, committed: (await store.collection(rows).findById(id)) !== null });
      },
    });
  });

  afterEach(async () => {
    await transport.close();
    await store.close();
  });

  it('publishes nothing until the batch commits, then every event in order, and their outbox rows go at the next drop', async () => {
    let seenInside = -1;
    await bus.atomically(async () => {
      for (const id of ['a', 'b', 'c']) await bus.emitWith(created(id), () => store.collection(rows).insert({ _id: id }));
      await new Promise((r) => setTimeout(r, 20)); // time a published event would have had to arrive
      seenInside = seen.length;
    });
    await transport.drain();
    expect(seenInside).toBe(0);
    expect(seen).toEqual(['a', 'b', 'c'].map((id) => ({ id, committed: true })));
    await new Promise((r) => setImmediate(r));
    await bus.dropPublished(); // published rows go together, with the next commit or this drop
    expect(await store.collection(outboxCollection).count({})).toBe(0);
  });

  it('rolls every change back and publishes nothing when the batch throws', async () => {
    await expect(
      bus.atomically(async () => {
        await bus.emitWith(created('a'), () => store.collection(rows).insert({ _id: 'a' }));
        throw new Error('import stopped');
      }),
    ).rejects.toThrow('import stopped');
    await transport.drain();
    expect(seen).toEqual([]);
    expect(await store.collection(rows).count({})).toBe(0);
    expect(await store.collection(outboxCollection).count({})).toBe(0);
  });

  it('keeps a change refused inside the batch out, and the rest in', async () => {
    await store.collection(rows).insert({ _id: 'b' });
    const outcomes = await bus.atomically(async () => {
      const out: string[] = [];
      for (const id of ['a', 'b', 'c']) {
        try {
          await bus.emitWith(created(id), () => store.collection(rows).insert({ _id: id }));
          out.push(`${id} stored`);
        } catch {
          out.push(`${id} refused`);
        }
      }
      return out;
    });
    await transport.drain();
    expect(outcomes).toEqual(['a stored', 'b refused', 'c stored']);
    expect(seen.map((s) => s.id)).toEqual(['a', 'c']);
  });
});

describe('MemoryTransport: queued events to a consumer that handles them in groups', () => {
  const event = (n: number): AnyEventEnvelope => ({
    id: `e${n}`,
    type: 'follow.created',
    version: 1,
    occurredAt: new Date().toISOString(),
    actorId: null,
    key: `k${n}`,
    payload: { followerId: `f${n}`, followeeId: 'bob' },
  });

  it('hands the events waiting together to handleBatch, in order, and each of a failed group to handler on its own', async () => {
    const transport = new MemoryTransport();
    await transport.connect();
    const groups: string[][] = [];
    const singles: string[] = [];
    await transport.subscribe({
      group: 'g',
      consumer: 'c',
      types: ['follow.created'],
      handler: async (e) => void singles.push(e.id),
      handleBatch: async (events) => {
        if (events.some((e) => e.id === 'e7')) throw new Error('one of them fails as a group');
        groups.push(events.map((e) => e.id));
      },
    });
    const receipts = await Promise.all([1, 2, 3, 4].map((n) => transport.publish(event(n))));
    await Promise.all(receipts.map((r) => r.handled));
    expect(groups).toEqual([['e1', 'e2', 'e3', 'e4']]);
    const later = await Promise.all([5, 6, 7].map((n) => transport.publish(event(n))));
    await transport.drain();
    await Promise.all(later.map((r) => r.handled));
    expect(singles).toEqual(['e5', 'e6', 'e7']);
    await transport.close();
  });
});
