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
 * Polls the group's pending entries and SIGKILLs one of the processes `pids` the moment its
 * consumer (consumer names carry the pid) holds one: it dies with events read and not
 * acknowledged. Given several replicas, whichever Redis serves is the one caught (`killedPid`).
 * `result()` gives the likers (payload.userId) of the entries it was holding. `kill` replaces the
 * SIGKILL of that process alone (the multi-host test takes the whole host down with it).
 */
export class KillWatch {
  private readonly client: Redis;
  private readonly pids: number[];
  private running?: Promise<string[]>;
  /** The process it killed, once it has. */
  killedPid?: number;

  constructor(
    url: string,
    private readonly stream: string,
    private readonly group: string,
    pids: number | number[],
    private readonly kill: (pid: number) => void = (pid) => process.kill(pid, 'SIGKILL'),
    /** How long a watched process runs between two looks. On a loaded machine 2 ms let it hardly ever ask for entries. */
    private readonly runMs = 2,
  ) {
    this.pids = ([] as number[]).concat(pids);
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
    // the watched consumers are looked up until they appear.
    const consumers = new Map<number, string>();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      for (const pid of this.pids) {
        const name = consumers.get(pid) ?? (await this.consumerName(pid));
        if (name) consumers.set(pid, name);
      }
      for (const [pid, consumer] of consumers) {
        // Frozen first, then asked: its acknowledgements already on the wire land in the pause and
        // it sends no more, and what it read stays pending while it is stopped. A replica that
        // handles an event faster than one poll (two Redis round trips) is still caught holding
        // one; otherwise it runs on and is frozen again a moment later.
        process.kill(pid, 'SIGSTOP');
        await sleep(20);
        const held = await this.held(consumer);
        if (held.length > 0) {
          this.killedPid = pid;
          this.kill(pid);
          return this.likers(held);
        }
        process.kill(pid, 'SIGCONT');
      }
      await sleep(this.runMs);
    }
    throw new Error(`no process of ${this.pids.join(', ')} held an unacknowledged entry of ${this.stream}`);
  }

  private async consumerName(pid: number): Promise<string | undefined> {
    const consumers = (await this.client.xinfo('CONSUMERS', this.stream, this.group)) as unknown[][];
    return consumers.map((fields) => String(Object.fromEntries(pairs(fields)).name)).find((n) => n.includes(`-${pid}-`));
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
