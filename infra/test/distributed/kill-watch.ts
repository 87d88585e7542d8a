import Redis from 'ioredis';
import { sleep } from './stack-client';

/** Entries of `stream` delivered to a consumer of `group` and not yet acknowledged. */
export async function pendingOf(url: string, stream: string, group: string): Promise<number> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const summary = (await client.xpending(stream, group)) as [number, ...unknown[]];
    return Number(summary[0]);
  } finally {
    client.disconnect();
  }
}

/**
 * Polls the group's pending entries and SIGKILLs process `pid` the moment its consumer (consumer
 * names carry the pid) holds one: it dies with events read and not acknowledged. `result()` gives
 * the likers (payload.userId) of the entries it was holding. `kill` replaces the SIGKILL of `pid`
 * alone (the multi-host test takes the whole host down with it).
 */
export class KillWatch {
  private readonly client: Redis;
  private running?: Promise<string[]>;

  constructor(
    url: string,
    private readonly stream: string,
    private readonly group: string,
    private readonly pid: number,
    private readonly kill: () => void = () => process.kill(pid, 'SIGKILL'),
  ) {
    this.client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  }

  start(): void {
    this.running = this.run().finally(() => this.client.disconnect());
  }

  async result(): Promise<string[]> {
    if (!this.running) throw new Error('KillWatch was never started');
    return this.running;
  }

  private async run(): Promise<string[]> {
    await this.client.connect();
    // Redis (7.0) names a consumer in a group only once it has been served an entry there, so
    // the victim's consumer is looked up until it appears.
    let consumer: string | undefined;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      consumer ??= await this.consumerName();
      const held = consumer ? await this.held(consumer) : [];
      if (consumer && held.length > 0) {
        // Frozen first, so its acknowledgements already on the wire land and it sends no more:
        // it is killed only if it still holds entries then, otherwise it runs on and is watched again.
        process.kill(this.pid, 'SIGSTOP');
        await sleep(50);
        const stillHeld = await this.held(consumer);
        if (stillHeld.length > 0) {
          this.kill();
          return this.likers(stillHeld);
        }
        process.kill(this.pid, 'SIGCONT');
      }
      await sleep(2);
    }
    throw new Error(`process ${this.pid} never held an unacknowledged entry of ${this.stream}`);
  }

  private async consumerName(): Promise<string | undefined> {
    const consumers = (await this.client.xinfo('CONSUMERS', this.stream, this.group)) as unknown[][];
    return consumers.map((fields) => String(Object.fromEntries(pairs(fields)).name)).find((n) => n.includes(`-${this.pid}-`));
  }

  private async held(consumer: string): Promise<string[]> {
    const rows = (await this.client.xpending(this.stream, this.group, '-', '+', 100, consumer)) as [string, ...unknown[]][];
    return rows.map((row) => row[0]);
  }

  private async likers(ids: string[]): Promise<string[]> {
    const likers: string[] = [];
    for (const id of ids) {
      const [entry] = (await this.client.xrange(this.stream, id, id)) as [string, string[]][];
      const fields = Object.fromEntries(pairs(entry?.[1] ?? [])) as { data?: string };
      if (fields.data) likers.push((JSON.parse(fields.data) as { payload: { userId: string } }).payload.userId);
    }
    return likers;
  }
}

export function pairs(fields: unknown[]): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) out.push([String(fields[i]), fields[i + 1]]);
  return out;
}
