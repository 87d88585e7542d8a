import { NedbStore } from '@app/store';
import { BusServer } from './bus-server';
import { MemoryTransport } from './memory/memory-transport';
import { inboxCollection } from './outbox.collection';

describe('BusServer inbox', () => {
  it('forgets handled event ids older than the retention window and keeps the recent ones', async () => {
    const store = new NedbStore();
    await store.open([inboxCollection]);
    const inbox = store.collection(inboxCollection);
    const now = Date.now();
    await inbox.insertMany([
      { _id: 'old', type: 'user.registered', handled_at: now - 10_000 },
      { _id: 'edge', type: 'user.registered', handled_at: now - 5_000 },
      { _id: 'new', type: 'user.registered', handled_at: now - 10 },
    ]);
    const server = new BusServer({ transport: new MemoryTransport(), group: 'g', consumer: 'c', inbox, inboxRetentionMs: 5_000 });

    expect(await server.pruneInbox(now)).toBe(1);
    expect((await inbox.find({}, { sort: { handled_at: 1 } })).map((d) => d._id)).toEqual(['edge', 'new']);
    await store.close();
  });
});
