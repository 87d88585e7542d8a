// Runs without Redis: BUS=redis with a REDIS_URL nothing answers on must stop boot within
// seconds and name the setting (the outage after boot is in infra/test/system/faults).
import { createServer } from 'node:net';
import { REDIS_CONNECT_TIMEOUT_MS } from '@app/store';
import Redis from 'ioredis';
import { describeWithRedis, RedisServerHandle, startRedisServer } from '@app/testing/engines';
import { Subscription } from '../bus.port';
import { createTransport } from '../transport.factory';
import { RedisStreamsTransport } from './redis-streams-transport';

/** A local port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('Redis Streams transport with an unreachable REDIS_URL', () => {
  it('connect() rejects within seconds, naming the URL and REDIS_URL', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const transport = createTransport({ engine: 'redis', redisUrl: url });
    const started = Date.now();
    await expect(transport.connect()).rejects.toThrow(`Redis at ${url} is unreachable (REDIS_URL): connect ECONNREFUSED`);
    // Refused at once, not given up on after the connect time-out.
    expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
    expect(await transport.isHealthy()).toBe(false);
    await transport.close();
  });
});

// A guard, not a reliable reproduction: the old hang (DESTROY queued on a connection that
// retries without limit) depended on where ioredis was in its reconnect cycle.
describeWithRedis('redis-streams-transport.spec')('Redis Streams transport closed during an outage', () => {
  it('closes within its close time-out with a broadcast subscription (as the gateway has), not waiting for Redis', async () => {
    const redis = await startRedisServer();
    const transport = new RedisStreamsTransport({ url: redis.url, prefix: `outage-${Date.now()}:`, closeTimeoutMs: 300 });
    try {
      await transport.connect();
      await transport.subscribe({ group: 'broadcast:gw', consumer: 'gw', types: ['message.sent'], handler: async () => undefined });
      await transport.subscribe({ group: 'svc', consumer: 'svc-1', types: ['message.sent'], handler: async () => undefined });
      await redis.stop();
      // The outage is on: the connections have noticed and are reconnecting.
      await new Promise((r) => setTimeout(r, 1_000));
      const started = Date.now();
      await transport.close();
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await transport.close();
      await redis.stop();
    }
  });
});

describeWithRedis('redis-streams-transport.spec')('Redis Streams transport: waiting until an event is handled (issue 46 case 3)', () => {
  const event = (id: string) =>
    ({ id, type: 'block.created', version: 1, occurredAt: new Date().toISOString(), actorId: 'a', key: 'a', payload: { blockerId: 'a', blockedId: 'b' } }) as const;

  it('resolves once every live group has handled the event, not before, and gives up at its time-out', async () => {
    const redis = await startRedisServer();
    const transport = new RedisStreamsTransport({ url: redis.url, prefix: `until-${Date.now()}:`, blockMs: 50 });
    const handled: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    try {
      await transport.connect();
      await transport.subscribe({ group: 'fast', consumer: 'f1', types: ['block.created'], handler: async (e) => void handled.push(`fast:${e.id}`) });
      await transport.subscribe({
        group: 'slow',
        consumer: 's1',
        types: ['block.created'],
        handler: async (e) => {
          await slow;
          handled.push(`slow:${e.id}`);
        },
      });
      await new Promise((r) => setTimeout(r, 200)); // both consumers have read once: they are live
      await transport.publish(event('e1'));
      expect(await transport.untilHandled(event('e1'), 500)).toBe(false);
      expect(handled).toEqual(['fast:e1']);
      await transport.publish(event('e2'));
      const waiting = transport.untilHandled(event('e2'), 5_000);
      setTimeout(release, 300);
      expect(await waiting).toBe(true);
      expect(handled).toEqual(expect.arrayContaining(['slow:e1', 'fast:e2', 'slow:e2']));
    } finally {
      release();
      await transport.close();
      await redis.stop();
    }
  });
});

describeWithRedis('redis-streams-transport.spec')('Redis Streams transport: a group whose process dies while it is waited for', () => {
  it('stops being waited for once its consumers sat idle past the claim window', async () => {
    const redis = await startRedisServer();
    const prefix = `until-dead-${Date.now()}:`;
    const waiter = new RedisStreamsTransport({ url: redis.url, prefix, blockMs: 50, claimIdleMs: 300 });
    const admin = new Redis(redis.url);
    try {
      await waiter.connect();
      const e = { id: 'e1', type: 'block.created', version: 1, occurredAt: new Date().toISOString(), actorId: 'a', key: 'a', payload: { blockerId: 'a', blockedId: 'b' } } as const;
      // A group whose one consumer has just shown its sign of life (live when the wait begins) and never again: its process died.
      await admin.xgroup('CREATE', `${prefix}block.created`, 'doomed', '$', 'MKSTREAM');
      await admin.xgroup('CREATECONSUMER', `${prefix}block.created`, 'doomed', 'd1');
      await admin.set(`${prefix}alive:doomed`, 'd1', 'PX', 300);
      await waiter.publish(e);
      const started = Date.now();
      expect(await waiter.untilHandled(e, 5_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      admin.disconnect();
      await waiter.close();
      await redis.stop();
    }
  });
});

describeWithRedis('redis-streams-transport.spec')('Redis Streams transport: a live group on a quiet stream', () => {
  it('is waited for when the event finds its consumer busy with another stream (Redis 7.0 shows no consumer there yet)', async () => {
    const redis = await startRedisServer();
    const transport = new RedisStreamsTransport({ url: redis.url, prefix: `quiet-${Date.now()}:`, blockMs: 50, claimIdleMs: 1_000 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    try {
      await transport.connect();
      await transport.subscribe({ group: 'gateway', consumer: 'g1', types: ['block.created', 'review.liked'], handler: (e) => (e.type === 'review.liked' ? held : Promise.resolve()) });
      await new Promise((r) => setTimeout(r, 200));
      // Busy with a like, the consumer is not reading when the block comes: nothing delivers it yet.
      await transport.publish({ id: 'l1', type: 'review.liked', version: 1, occurredAt: new Date().toISOString(), actorId: 'u2', key: 'r1', payload: { reviewId: 'r1', reviewAuthorId: 'u1', userId: 'u2', likeCount: 1 } });
      await new Promise((r) => setTimeout(r, 100));
      const e = { id: 'q1', type: 'block.created', version: 1, occurredAt: new Date().toISOString(), actorId: 'a', key: 'a', payload: { blockerId: 'a', blockedId: 'b' } } as const;
      await transport.publish(e);
      expect(await transport.untilHandled(e, 300)).toBe(false);
    } finally {
      release();
      await transport.close();
      await redis.stop();
    }
  });
});

describeWithRedis('redis-streams-transport.spec')('Redis Streams transport: in step with the streams, and the acknowledgements', () => {
  let redis: RedisServerHandle;
  let admin: Redis;
  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin.disconnect();
    await redis.stop();
  });

  const liked = (id: string) =>
    ({ id, type: 'review.liked', version: 1, occurredAt: new Date().toISOString(), actorId: 'u2', key: 'r1', payload: { reviewId: 'r1', reviewAuthorId: 'u1', userId: 'u2', likeCount: 1 } }) as const;
  const until = async (check: () => boolean, what: string, ms = 5_000) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('is not in step while a backlog is read, nor while a read stalls; it is again once caught up', async () => {
    const transport = new RedisStreamsTransport({ url: redis.url, prefix: `step-${Date.now()}:`, blockMs: 50, batchSize: 2 });
    try {
      await transport.connect();
      for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) await transport.publish(liked(id));
      const seen: string[] = [];
      const held: { subscription?: Subscription } = {};
      // A service's group starts at the stream's beginning: the five are a backlog read two at a time.
      held.subscription = await transport.subscribe({
        group: 'svc',
        consumer: 'svc-1',
        types: ['review.liked'],
        handler: async (e) => void seen.push(`${e.id}:${held.subscription?.inStep?.()}`),
      });
      const subscription = held.subscription;
      await until(() => subscription.inStep?.() === true, 'in step');
      expect(seen).toEqual(['e1:false', 'e2:false', 'e3:false', 'e4:false', 'e5:false']);

      // Reads are writes to Redis: paused, the consumer's read waits past its block and it is no longer in step.
      await admin.client('PAUSE', 2_000, 'WRITE');
      await until(() => subscription.inStep?.() === false, 'a stalled read');
      await until(() => subscription.inStep?.() === true, 'in step after the pause');
    } finally {
      await transport.close();
    }
  });

  it('a dropped connection puts it out of step until it has read again; groups lost with Redis data are a gap', async () => {
    const transport = new RedisStreamsTransport({ url: redis.url, prefix: `gap-${Date.now()}:`, blockMs: 50 });
    let gaps = 0;
    const seen: string[] = [];
    try {
      await transport.connect();
      const subscription = await transport.subscribe({
        group: 'broadcast:gw',
        consumer: 'gw',
        types: ['review.liked'],
        handler: async (e) => void seen.push(e.id),
        onGap: () => gaps++,
      });
      await until(() => subscription.inStep?.() === true, 'in step');
      await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
      await until(() => subscription.inStep?.() === false, 'out of step once the connection dropped');
      await until(() => subscription.inStep?.() === true, 'in step after the reconnect');
      expect(gaps).toBe(0);

      await admin.flushall();
      await until(() => gaps === 1, 'the gap');
      await until(() => subscription.inStep?.() === true, 'in step on the new group');
      await transport.publish(liked('after'));
      await until(() => seen.includes('after'), 'an event on the new group');
    } finally {
      await transport.close();
    }
  });

  it("acknowledges each entry as its handler resolves, not holding the next handler for Redis's answer", async () => {
    const prefix = `ack-${Date.now()}:`;
    const transport = new RedisStreamsTransport({ url: redis.url, prefix, blockMs: 50 });
    const ran: { id: string; at: number }[] = [];
    try {
      await transport.connect();
      const ids = new Map<string, string>();
      for (const id of ['a1', 'a2', 'a3']) {
        await transport.publish(liked(id));
        ids.set(id, (await admin.xrevrange(`${prefix}review.liked`, '+', '-', 'COUNT', 1))[0][0]);
      }
      await transport.subscribe({
        group: 'svc',
        consumer: 'svc-1',
        types: ['review.liked'],
        handler: async (e) => {
          ran.push({ id: e.id, at: Date.now() });
          // Writes paused: a1's XACK waits for Redis; a2 and a3 must not wait behind it.
          if (e.id === 'a1') await admin.client('PAUSE', 1_000, 'WRITE');
          if (e.id === 'a2') throw new Error('not this time');
        },
      });
      await until(() => ran.length === 3, 'three handlers');
      expect(ran.map((r) => r.id)).toEqual(['a1', 'a2', 'a3']);
      expect(ran[2].at - ran[0].at).toBeLessThan(500);
      // Once Redis answers again a1 and a3 are acknowledged; a2 failed and stays pending for a claim.
      await new Promise((r) => setTimeout(r, 1_500));
      const pending = (await admin.xpending(`${prefix}review.liked`, 'svc', '-', '+', 10)) as [string, string, number, number][];
      expect(pending.map(([id]) => id)).toEqual([ids.get('a2')]);
    } finally {
      await transport.close();
    }
  });
});

describeWithRedis('redis-streams-transport.spec')("Redis Streams transport: a unit's events in one round trip", () => {
  const event = (id: string, type: 'block.created' | 'follow.created') =>
    type === 'block.created'
      ? ({ id, type, version: 1, occurredAt: new Date().toISOString(), actorId: 'a', key: 'a', payload: { blockerId: 'a', blockedId: 'b' } } as const)
      : ({ id, type, version: 1, occurredAt: new Date().toISOString(), actorId: 'a', key: 'a', payload: { followerId: 'a', followeeId: 'b' } } as const);

  it('publishAll takes the events in their order, each in its stream, and knows where each went (untilHandled)', async () => {
    const redis = await startRedisServer();
    const prefix = `all-${Date.now()}:`;
    const transport = new RedisStreamsTransport({ url: redis.url, prefix, blockMs: 50 });
    const reader = new Redis(redis.url);
    const handled: string[] = [];
    try {
      await transport.connect();
      await transport.subscribe({ group: 'g', consumer: 'c', types: ['block.created', 'follow.created'], handler: async (e) => void handled.push(e.id) });
      await new Promise((r) => setTimeout(r, 200));
      const events = ['b1', 'f1', 'b2', 'f2', 'b3'].map((id) => event(id, id.startsWith('b') ? 'block.created' : 'follow.created'));
      await transport.publishAll(events);
      const ids = async (type: string) => (await reader.xrange(prefix + type, '-', '+')).map(([, fields]) => JSON.parse(fields[fields.indexOf('data') + 1]).id);
      expect(await ids('block.created')).toEqual(['b1', 'b2', 'b3']);
      expect(await ids('follow.created')).toEqual(['f1', 'f2']);
      expect(await transport.untilHandled(events[4], 5_000)).toBe(true);
      expect(handled).toEqual(expect.arrayContaining(['b1', 'b2', 'b3']));
    } finally {
      reader.disconnect();
      await transport.close();
      await redis.stop();
    }
  });
  it('acknowledges a handled batch with one XACK per stream, not one per entry', async () => {
    const redis = await startRedisServer();
    const prefix = `batch-${Date.now()}:`;
    const transport = new RedisStreamsTransport({ url: redis.url, prefix, blockMs: 50 });
    const admin = new Redis(redis.url);
    const batches: string[][] = [];
    try {
      await transport.connect();
      const events = ['b1', 'f1', 'b2', 'f2', 'b3'].map((id) => event(id, id.startsWith('b') ? 'block.created' : 'follow.created'));
      await transport.publishAll(events); // before the group reads: one read takes them all
      await admin.config('RESETSTAT');
      await transport.subscribe({
        group: 'g',
        consumer: 'c',
        types: ['block.created', 'follow.created'],
        handler: async (e) => void batches.push([e.id]),
        handleBatch: async (batch) => void batches.push(batch.map((e) => e.id)),
      });
      expect(await transport.untilHandled(events[4], 5_000)).toBe(true);
      expect(batches).toEqual([['b1', 'f1', 'b2', 'f2', 'b3']]);
      await new Promise((r) => setTimeout(r, 200));
      for (const type of ['block.created', 'follow.created']) expect(await admin.xpending(prefix + type, 'g')).toEqual([0, null, null, null]);
      expect(/cmdstat_xack:calls=(\d+)/.exec(await admin.info('commandstats'))?.[1]).toBe('2');
    } finally {
      admin.disconnect();
      await transport.close();
      await redis.stop();
    }
  });

  it('reads a trickle of events in batches: after a handled read it lingers, so what arrives meanwhile comes together', async () => {
    const redis = await startRedisServer();
    const prefix = `linger-${Date.now()}:`;
    const transport = new RedisStreamsTransport({ url: redis.url, prefix, blockMs: 50, lingerMs: 200 });
    const batches: string[][] = [];
    try {
      await transport.connect();
      await transport.subscribe({
        group: 'g',
        consumer: 'c',
        types: ['block.created'],
        handler: async (e) => void batches.push([e.id]),
        handleBatch: async (batch) => void batches.push(batch.map((e) => e.id)),
      });
      const events = ['t1', 't2', 't3', 't4'].map((id) => event(id, 'block.created'));
      // The first, to an idle consumer, is read at once; the next three, 20 ms apart, wait for the linger to end.
      const started = Date.now();
      await transport.publish(events[0]);
      expect(await transport.untilHandled(events[0], 5_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(150);
      for (const e of events.slice(1)) {
        await transport.publish(e);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await transport.untilHandled(events[3], 5_000)).toBe(true);
      expect(batches).toEqual([['t1'], ['t2', 't3', 't4']]);
    } finally {
      await transport.close();
      await redis.stop();
    }
  });
});
