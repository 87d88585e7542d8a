import { SqliteStore } from '@app/store';
import { BusServer } from './bus-server';
import { MemoryTransport } from './memory/memory-transport';
import { inboxCollection } from './outbox.collection';

describe('BusServer inbox', () => {
  it('forgets handled event ids older than the retention window and keeps the recent ones', async () => {
    const store = new SqliteStore();
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

describe('BusServer outcomes', () => {
  it('reports handled, duplicate and failed deliveries with their lag', async () => {
    const store = new SqliteStore();
    await store.open([inboxCollection]);
    const seen: string[] = [];
    const server = new BusServer({
      transport: new MemoryTransport(),
      group: 'g',
      consumer: 'c',
      inbox: store.collection(inboxCollection),
      observe: (event, outcome, lag) => {
        expect(lag).toBeGreaterThanOrEqual(0);
        seen.push(`${event.id}:${outcome}`);
      },
    });
    let fail = false;
    server.addHandler('user.registered', async () => {
      if (fail) throw new Error('boom');
    }, true);
    const event = (id: string) => ({
      id,
      type: 'user.registered' as const,
      version: 1,
      occurredAt: new Date(Date.now() - 50).toISOString(),
      actorId: null,
      key: 'k',
      payload: { userId: 'u', username: 'u', email: 'u@x.io', display_name: 'U', name: 'U', profile_image_url: null, created_at: '' },
    });
    await server.dispatch(event('e1'));
    await server.dispatch(event('e1'));
    fail = true;
    await expect(server.dispatch(event('e2'))).rejects.toThrow('boom');
    expect(seen).toEqual(['e1:handled', 'e1:duplicate', 'e2:failed']);
    await store.close();
  });
});
