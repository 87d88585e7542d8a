import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Subscription } from '@app/bus';
import { describeWithRedis, RedisServerHandle, startRedisServer } from '@app/testing/engines';
import { GatewayConfig } from '../config/gateway.config';
import { SessionCutoffs } from './session-cutoffs';

/** Auth's GET /api/auth/session: the version it answers (or 401 for tokens named in `revoked`, or down), and the calls. */
class FakeAuth {
  version = 0;
  down = false;
  readonly revoked = new Set<string>();
  readonly calls: string[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const token = (req.headers.authorization ?? '').slice(7);
      this.calls.push(token);
      if (this.down) return void res.writeHead(503).end();
      if (this.revoked.has(token)) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false}');
      // Slow enough for parallel checks of one token to meet on one call.
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: { session_version: this.version } })), 20);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** The event relay's subscription as the cut-offs see it. */
const feed = (state: { inStep: boolean }): Subscription => ({ close: async () => undefined, inStep: () => state.inStep });

describe('SessionCutoffs: in the gateway memory, following the bus', () => {
  const auth = new FakeAuth();
  let cutoffs: SessionCutoffs;
  const step = { inStep: true };

  beforeAll(async () => {
    const url = await auth.start();
    cutoffs = new SessionCutoffs({ BUS: 'redis' } as GatewayConfig, { auth: url });
    await cutoffs.onModuleInit();
    cutoffs.follow(feed(step));
  });
  afterAll(() => auth.stop());
  beforeEach(() => {
    auth.calls.length = 0;
    auth.down = false;
    step.inStep = true;
  });

  it('asks auth once for a member it does not know (parallel requests share the call), then answers from memory', async () => {
    auth.version = 2;
    expect(await Promise.all([cutoffs.isCurrent('m1', 2, 't2'), cutoffs.isCurrent('m1', 2, 't2'), cutoffs.isCurrent('m1', 2, 't2')])).toEqual([true, true, true]);
    expect(auth.calls).toEqual(['t2']);
    expect(await cutoffs.isCurrent('m1', 1, 't1')).toBe(false);
    expect(await cutoffs.isCurrent('m1', 2, 't2')).toBe(true);
    expect(auth.calls).toEqual(['t2']);
  });

  it('a revocation raises the cut-off at once, and an older announcement does not lower it', async () => {
    await cutoffs.raise('m2', 3);
    await cutoffs.raise('m2', 1);
    expect(await cutoffs.isCurrent('m2', 2, 'm2-old')).toBe(false);
    expect(await cutoffs.isCurrent('m2', 3, 'm2-new')).toBe(true);
    expect(auth.calls).toEqual([]);
  });

  it('out of step with the bus (an announcement may be waiting), every check asks auth', async () => {
    await cutoffs.raise('m3', 1);
    step.inStep = false;
    auth.version = 4;
    expect(await cutoffs.isCurrent('m3', 1, 'm3-a')).toBe(false);
    auth.revoked.add('m3-b');
    expect(await cutoffs.isCurrent('m3', 4, 'm3-b')).toBe(false);
    expect(auth.calls).toEqual(['m3-a', 'm3-b']);
    // Back in step: what auth said is held (4), no call.
    step.inStep = true;
    expect(await cutoffs.isCurrent('m3', 3, 'm3-c')).toBe(false);
    expect(auth.calls).toEqual(['m3-a', 'm3-b']);
  });

  it('after a gap every member is asked again; with auth down the last known cut-off still holds', async () => {
    await cutoffs.raise('m4', 5);
    cutoffs.forgetAll();
    auth.version = 6;
    expect(await cutoffs.isCurrent('m4', 5, 'm4-a')).toBe(false);
    expect(auth.calls).toEqual(['m4-a']);
    step.inStep = false;
    auth.down = true;
    expect(await cutoffs.isCurrent('m4', 5, 'm4-b')).toBe(false);
    expect(await cutoffs.isCurrent('m4', 6, 'm4-c')).toBe(true);
    // A member never seen, auth down: signature and expiry were checked, the token stands.
    expect(await cutoffs.isCurrent('m5', 0, 'm5-a')).toBe(true);
  });
});

describeWithRedis('session-cutoffs.spec')('SessionCutoffs on Kafka: shared by the replicas in Redis', () => {
  let redis: RedisServerHandle;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());

  it('a cut-off raised on one replica refuses the token on another at once (no in-force wait on Kafka)', async () => {
    const config = { BUS: 'kafka', REDIS_URL: redis.url } as GatewayConfig;
    const [one, two] = [new SessionCutoffs(config, {}), new SessionCutoffs(config, {})];
    await Promise.all([one.onModuleInit(), two.onModuleInit()]);
    try {
      await one.raise('k1', 2);
      expect(await two.isCurrent('k1', 1, 'k1-old')).toBe(false);
      expect(await two.isCurrent('k1', 2, 'k1-new')).toBe(true);
    } finally {
      await Promise.all([one.onApplicationShutdown(), two.onApplicationShutdown()]);
    }
  });
});
