import { Controller, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { AnyEventEnvelope, EventEnvelope } from '@app/contracts';
import { defineCollection, SqliteStore } from '@app/store';
import { probeStore } from '@app/testing';
import { BusServer } from './bus-server';
import { EventBus } from './event-bus';
import { MemoryTransport } from './memory/memory-transport';
import { OnEvent, OnEventBatch } from './on-event.decorator';
import { inboxCollection, outboxCollection } from './outbox.collection';

/** A valid review.liked delivery. */
const likedEvent = (id: string): AnyEventEnvelope =>
  ({
    id,
    type: 'review.liked',
    version: 1,
    occurredAt: new Date().toISOString(),
    actorId: 'u2',
    key: 'r1',
    payload: { reviewId: 'r1', reviewAuthorId: 'u1', userId: 'u2', likeCount: 1 },
  }) as AnyEventEnvelope;

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
      payload: { userId: 'u', username: 'u', email: 'u@x.io', display_name: 'U', name: 'U', profile_image_url: null, created_at: new Date().toISOString() },
    });
    await server.dispatch(event('e1'));
    await server.dispatch(event('e1'));
    fail = true;
    await expect(server.dispatch(event('e2'))).rejects.toThrow('boom');
    expect(seen).toEqual(['e1:handled', 'e1:duplicate', 'e2:failed']);
    await store.close();
  });
});

describe('BusServer payload checks', () => {
  const liked = (id: string, payload: Record<string, unknown>, version = 1) =>
    ({
      id,
      type: 'review.liked',
      version,
      occurredAt: new Date().toISOString(),
      actorId: 'u2',
      key: 'r1',
      payload: { reviewId: 'r1', reviewAuthorId: 'u1', userId: 'u2', likeCount: 1, ...payload },
    }) as EventEnvelope<'review.liked'> as AnyEventEnvelope;

  async function consumer() {
    const transport = new MemoryTransport();
    const handled: string[] = [];
    const outcomes: string[] = [];
    const server = new BusServer({
      transport,
      group: 'g',
      consumer: 'c',
      observe: (event, outcome) => outcomes.push(`${event.id}:${outcome}`),
    });
    server.addHandler('review.liked', async (event: AnyEventEnvelope) => void handled.push(event.id), true);
    await new Promise<void>((resolve) => void server.listen(() => resolve()));
    return { transport, server, handled, outcomes };
  }

  it('keeps a malformed payload of a real event from its handler and handles the next good one', async () => {
    const { transport, server, handled, outcomes } = await consumer();
    await transport.publish(liked('bad', { likeCount: 'many', userId: undefined }));
    await transport.publish(liked('good', {}));
    await transport.drain();
    expect(handled).toEqual(['good']);
    expect(outcomes).toEqual(['bad:rejected', 'good:handled']);
    await server.close();
    await transport.close();
  });

  it('refuses a version this code does not know the same way', async () => {
    const { transport, server, handled, outcomes } = await consumer();
    await transport.publish(liked('newer', {}, 2));
    await transport.publish(liked('good', {}));
    await transport.drain();
    expect(handled).toEqual(['good']);
    expect(outcomes).toEqual(['newer:rejected', 'good:handled']);
    await server.close();
    await transport.close();
  });

  it('checks nested objects and nullable fields', async () => {
    const { transport, server, handled, outcomes } = await consumer();
    server.addHandler('notification.created', async (event: AnyEventEnvelope) => void handled.push(event.id), true);
    const notification = (id: string, related_user: unknown) =>
      ({
        id,
        type: 'notification.created',
        version: 1,
        occurredAt: new Date().toISOString(),
        actorId: null,
        key: 'u1',
        payload: {
          notificationId: 'n1',
          recipientId: 'u1',
          push: true,
          notification: { id: 'n1', type: 'like', message: 'm', is_read: false, created_at: new Date().toISOString(), related_user },
        },
      }) as AnyEventEnvelope;
    await server.dispatch(notification('no-user', null));
    await server.dispatch(notification('bad-user', { id: 'u2', username: 'x' }));
    await server.dispatch(notification('user', { id: 'u2', username: 'x', display_name: 'X', profile_image_url: null }));
    expect(handled).toEqual(['no-user', 'user']);
    expect(outcomes).toEqual(['no-user:handled', 'bad-user:rejected', 'user:handled']);
    await server.close();
    await transport.close();
  });
});

describe('BusServer deliveries as one unit', () => {
  const notes = defineCollection<{ _id: string; text: string }>('notes');

  it('a group on a store with transactions: one inbox read before its unit, its rows in one insert, one commit, and an event twice in it runs once', async () => {
    const store = new SqliteStore();
    await store.open([inboxCollection, outboxCollection]);
    const events = new EventBus(new MemoryTransport(), store);
    const inbox = store.collection(inboxCollection);
    const outcomes: string[] = [];
    const ran: string[] = [];
    const server = new BusServer({
      transport: new MemoryTransport(),
      group: 'g',
      consumer: 'c',
      inbox,
      atomically: (work) => events.atomically(work),
      transactional: events.transactional,
      observe: (event, outcome) => outcomes.push(`${event.id}:${outcome}`),
    });
    server.addHandler('review.liked', async (event: AnyEventEnvelope) => void ran.push(event.id), true);
    await inbox.insert({ _id: 'old', type: 'review.liked', handled_at: Date.now() });
    const probe = probeStore(store);
    try {
      await server.dispatchAll([likedEvent('e1'), likedEvent('old'), likedEvent('e2'), likedEvent('e1')]);
      expect(ran).toEqual(['e1', 'e2']);
      expect(outcomes).toEqual(['e1:handled', 'old:duplicate', 'e2:handled', 'e1:duplicate']);
      expect(probe.commits).toBe(1);
      expect(probe.reads).toBe(1);
      expect((await inbox.find({}, { sort: { _id: 1 } })).map((row) => row._id)).toEqual(['e1', 'e2', 'old']);
    } finally {
      probe.stop();
      await events.onModuleDestroy();
      await store.close();
    }
  });

  it("commits a delivery's writes, its emitted event and its inbox row once, and a failing handler leaves none of them", async () => {
    const store = new SqliteStore();
    await store.open([inboxCollection, outboxCollection, notes]);
    const transport = new MemoryTransport();
    const events = new EventBus(transport, store);
    const inbox = store.collection(inboxCollection);
    const server = new BusServer({ transport, group: 'g', consumer: 'c', inbox, atomically: (work) => events.atomically(work) });
    let fail = false;
    server.addHandler('review.liked', async (event: AnyEventEnvelope) => {
      await store.collection(notes).insert({ _id: `${event.id}:a`, text: 'first' });
      await events.emitWith(
        { type: 'user.updated', payload: { userId: 'u1', username: 'u1', display_name: 'U', bio: '', profile_image_url: null }, key: 'u1', proof: { collection: notes, match: { _id: `${event.id}:a` }, present: true } },
        () => store.collection(notes).insert({ _id: `${event.id}:b`, text: 'second' }),
      );
      if (fail) throw new Error('boom');
    }, true);
    const probe = probeStore();
    try {
      await server.dispatch(likedEvent('e1'));
      expect(probe.commits).toBe(1);
      expect(await inbox.findById('e1')).not.toBeNull();
      expect(await store.collection(notes).count({})).toBe(2);

      fail = true;
      probe.reset();
      await expect(server.dispatch(likedEvent('e2'))).rejects.toThrow('boom');
      expect(probe.commits).toBe(0);
      expect(await inbox.findById('e2')).toBeNull();
      expect(await store.collection(notes).count({})).toBe(2);
      expect((await store.collection(outboxCollection).find({})).map((r) => r.event.payload)).not.toContainEqual(expect.objectContaining({ reviewId: 'r1' }));
    } finally {
      probe.stop();
      await events.onModuleDestroy();
      await store.close();
    }
  });

  it('on a store with transactions: one inbox read per delivery, and a delivery that finds its row taken at the end rolls back as a duplicate', async () => {
    const store = new SqliteStore();
    await store.open([inboxCollection, outboxCollection, notes]);
    const transport = new MemoryTransport();
    const events = new EventBus(transport, store);
    const inbox = store.collection(inboxCollection);
    const outcomes: string[] = [];
    const server = new BusServer({
      transport,
      group: 'g',
      consumer: 'c',
      inbox,
      atomically: (work) => events.atomically(work),
      transactional: events.transactional,
      observe: (_event, outcome) => outcomes.push(outcome),
    });
    let race = false;
    server.addHandler('review.liked', async (event: AnyEventEnvelope) => {
      await store.collection(notes).insert({ _id: `${event.id}:note`, text: 'handled' });
      // Another delivery of the same event commits its inbox row while this one runs.
      if (race) await inbox.insert({ _id: event.id, type: event.type, handled_at: Date.now() });
    }, true);
    const probe = probeStore(store);
    try {
      await server.dispatch(likedEvent('e1'));
      expect(probe.reads).toBe(1);
      expect(outcomes).toEqual(['handled']);
      expect(await inbox.findById('e1')).not.toBeNull();

      await server.dispatch(likedEvent('e1'));
      expect(outcomes).toEqual(['handled', 'duplicate']);

      race = true;
      await server.dispatch(likedEvent('e2'));
      expect(outcomes).toEqual(['handled', 'duplicate', 'duplicate']);
      expect(await store.collection(notes).findById('e2:note')).toBeNull();
    } finally {
      probe.stop();
      await events.onModuleDestroy();
      await store.close();
    }
  });
});

describe('BusServer under Nest', () => {
  const handled: string[] = [];

  @Controller()
  class FirstHandlers {
    @OnEvent('review.liked')
    onLiked(@Payload() event: AnyEventEnvelope): void {
      handled.push(`first ${event.id}`);
    }
  }

  @Controller()
  class SecondHandlers {
    @OnEvent('review.liked')
    async onLiked(@Payload() event: AnyEventEnvelope): Promise<void> {
      await new Promise((resolve) => setImmediate(resolve));
      handled.push(`second ${event.id}`);
    }
  }

  @Controller()
  class ThirdHandlers {
    @OnEvent('review.liked')
    onLiked(@Payload() event: AnyEventEnvelope): void {
      handled.push(`third ${event.id}`);
    }
  }

  @Module({ controllers: [FirstHandlers, SecondHandlers, ThirdHandlers] })
  class HandlersModule {}

  it('runs each of several handlers of one event type once per delivery', async () => {
    const app = await NestFactory.createMicroservice(HandlersModule, {
      strategy: new BusServer({ transport: new MemoryTransport(), group: 'g', consumer: 'c' }),
      logger: false,
      abortOnError: false,
    });
    await app.init();
    const server = (app as unknown as { serverInstance: BusServer }).serverInstance;
    await server.dispatch(likedEvent('e1'));
    expect([...handled].sort()).toEqual(['first e1', 'second e1', 'third e1']);
    await app.close();
  });
});

/** A Nest microservice of `module`'s handlers on a BusServer over an in-memory bus and a SQLite inbox, as a service runs them. */
async function startBusApp(module: Type) {
  const store = new SqliteStore();
  await store.open([inboxCollection, outboxCollection]);
  const inbox = store.collection(inboxCollection);
  const bus = new EventBus(new MemoryTransport(), store);
  const outcomes: string[] = [];
  const app = await NestFactory.createMicroservice(module, {
    strategy: new BusServer({
      transport: new MemoryTransport(),
      group: 'g',
      consumer: 'c',
      inbox,
      atomically: (work) => bus.atomically(work),
      transactional: true,
      observe: (event, outcome) => outcomes.push(`${event.id}:${outcome}`),
    }),
    logger: false,
    abortOnError: false,
  });
  await app.init();
  const server = (app as unknown as { serverInstance: BusServer }).serverInstance;
  const stop = async () => {
    await app.close();
    await store.close();
  };
  return { server, inbox, outcomes, stop, store };
}

describe('BusServer and the events a handler is not concerned with', () => {
  const handled: string[] = [];

  @Controller()
  class ChoosyHandlers {
    @OnEvent('review.liked', { when: (event) => event.payload.likeCount > 1 })
    onLiked(@Payload() event: AnyEventEnvelope): void {
      handled.push(`choosy ${event.id}`);
    }
  }

  @Controller()
  class OtherChoosyHandlers {
    @OnEvent('review.liked', { when: (event) => event.payload.userId === 'u9' })
    onLiked(@Payload() event: AnyEventEnvelope): void {
      handled.push(`other ${event.id}`);
    }
  }

  @Module({ controllers: [ChoosyHandlers, OtherChoosyHandlers] })
  class ChoosyModule {}

  it('acknowledges an event no handler wants as ignored, with no inbox row and no commit; one some handler wants runs only the handlers that want it', async () => {
    const { server, inbox, outcomes, stop, store } = await startBusApp(ChoosyModule);
    const probe = probeStore(store);

    await server.dispatch(likedEvent('plain'));
    expect(probe.commits).toBe(0);
    probe.stop();
    await server.dispatch({ ...likedEvent('liked-twice'), payload: { reviewId: 'r1', reviewAuthorId: 'u1', userId: 'u2', likeCount: 2 } } as AnyEventEnvelope);

    expect(outcomes).toEqual(['plain:ignored', 'liked-twice:handled']);
    expect(handled).toEqual(['choosy liked-twice']);
    expect((await inbox.find({})).map((d) => d._id)).toEqual(['liked-twice']);
    await stop();
  });

  it('decides before validating: a malformed event nobody wants is ignored, one whose `when` throws on it is rejected', async () => {
    const outcomes: string[] = [];
    const server = new BusServer({ transport: new MemoryTransport(), group: 'g', consumer: 'c', observe: (event, outcome) => outcomes.push(`${event.id}:${outcome}`) });
    const malformed = (id: string) => ({ ...likedEvent(id), payload: { reviewId: 'r1', likeCount: 'many' } }) as unknown as AnyEventEnvelope;
    server.addHandler('review.liked', async () => undefined, true, { when: (e: EventEnvelope<'review.liked'>) => e.payload.likeCount > 1 });
    await server.dispatch(malformed('unwanted'));
    const picky = new BusServer({ transport: new MemoryTransport(), group: 'g', consumer: 'c', observe: (event, outcome) => outcomes.push(`${event.id}:${outcome}`) });
    picky.addHandler('review.liked', async () => undefined, true, { when: (e: EventEnvelope<'review.liked'>) => e.payload.userId.startsWith('u') });
    await picky.dispatch(malformed('throws'));

    expect(outcomes).toEqual(['unwanted:ignored', 'throws:rejected']);
  });
});

describe('BusServer and handlers of runs (OnEventBatch)', () => {
  const calls: string[][] = [];
  const singles: string[] = [];
  let failOn: string | undefined;

  @Controller()
  class RunHandlers {
    @OnEventBatch('review.liked', { when: (event) => event.payload.likeCount > 0 })
    onLiked(@Payload() events: AnyEventEnvelope[]): void {
      if (events.some((e) => e.id === failOn)) throw new Error(`fails on ${failOn}`);
      calls.push(events.map((e) => e.id));
    }

    @OnEvent('review.unliked')
    onUnliked(@Payload() event: AnyEventEnvelope): void {
      singles.push(event.id);
    }
  }

  @Module({ controllers: [RunHandlers] })
  class RunModule {}

  const unliked = (id: string) => ({ ...likedEvent(id), type: 'review.unliked' }) as AnyEventEnvelope;
  const likedBy = (id: string, likeCount: number) => ({ ...likedEvent(id), payload: { reviewId: 'r1', reviewAuthorId: 'u1', userId: 'u2', likeCount } }) as AnyEventEnvelope;

  async function start() {
    calls.length = 0;
    singles.length = 0;
    failOn = undefined;
    return startBusApp(RunModule);
  }

  it('hands each run of consecutive events of the type over as one array, in order, without repeats, invalid or unwanted events', async () => {
    const { server, inbox, outcomes, stop } = await start();
    await inbox.insert({ _id: 'seen', type: 'review.liked', handled_at: Date.now() });
    const invalid = { ...likedEvent('invalid'), payload: { reviewId: 'r1', likeCount: 3 } } as unknown as AnyEventEnvelope;

    await server.dispatchAll([likedEvent('a'), likedEvent('seen'), likedEvent('b'), likedEvent('a'), invalid, likedBy('unwanted', 0), unliked('u'), likedEvent('c')]);

    expect(calls).toEqual([['a', 'b'], ['c']]);
    expect(singles).toEqual(['u']);
    expect(outcomes).toEqual(['seen:duplicate', 'a:duplicate', 'invalid:rejected', 'unwanted:ignored', 'a:handled', 'b:handled', 'u:handled', 'c:handled']);
    expect((await inbox.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['a', 'b', 'c', 'seen', 'u']);
    await stop();
  });

  it('opens no transaction and reads no inbox for a group none of the handlers wants', async () => {
    const { server, outcomes, stop, store } = await start();
    const probe = probeStore(store);
    await server.dispatchAll([likedBy('x', 0), likedBy('y', 0)]);
    expect(probe.commits).toBe(0);
    expect(probe.reads).toBe(0);
    probe.stop();
    expect(outcomes).toEqual(['x:ignored', 'y:ignored']);
    expect(calls).toEqual([]);
    await stop();
  });

  it('gives a single delivery as an array of one', async () => {
    const { server, outcomes, stop } = await start();
    await server.dispatch(likedEvent('alone'));
    expect(calls).toEqual([['alone']]);
    expect(outcomes).toEqual(['alone:handled']);
    await stop();
  });

  it('commits nothing of a group whose run fails: every event of the run is reported failed and no inbox row stays', async () => {
    const { server, inbox, outcomes, stop } = await start();
    failOn = 'b';
    // Nest's exception handler turns the error into its RPC error object.
    await expect(server.dispatchAll([unliked('u'), likedEvent('a'), likedEvent('b')])).rejects.toMatchObject({ status: 'error' });
    expect(outcomes).toEqual(['u:handled', 'a:failed', 'b:failed']);
    expect(await inbox.find({})).toEqual([]);
    await stop();
  });
});

describe('BusServer refuses a type whose handlers mix single events and runs', () => {
  @Controller()
  class Singles {
    @OnEvent('review.liked')
    onLiked(): void {}
  }

  @Controller()
  class Runs {
    @OnEventBatch('review.liked')
    onLiked(): void {}
  }

  @Module({ controllers: [Singles, Runs] })
  class MixedModule {}

  it('fails to start', async () => {
    const app = await NestFactory.createMicroservice(MixedModule, {
      strategy: new BusServer({ transport: new MemoryTransport(), group: 'g', consumer: 'c' }),
      logger: false,
      abortOnError: false,
    });
    await expect(app.listen()).rejects.toThrow('The handlers of review.liked on g mix OnEvent and OnEventBatch');
    await app.close();
  });
});
