/**
 * `BENCH_PROFILE=distributed-postgres` (issue 29 §6): the bench's scenarios against
 * `npm run start:distributed`'s stack (each service its own process over Redis Streams) on
 * STORE=postgres, beside the default `embedded` profile.
 *
 * - The bench process starts a private redis-server and PostgreSQL on free ports (the test
 *   engines of libs/testing/engines), once: the stack's restart (boot on the seeded data) finds
 *   its data where it left it.
 * - The "stack child" bench.ts forks is then a control process (`--serve-distributed`) speaking
 *   the embedded child's protocol (ready, settle, import, memory): it runs the built launcher
 *   (dist/infra/launcher/src/distributed.js) on free ports, seeds through each service's own import
 *   on its port (the imports the embedded stack calls in process, with an IMPORT_TOKEN of this run)
 *   and settles by watching the outbox tables and the services' Redis consumer groups drain.
 * - CPU and peak RSS are summed over process trees read from /proc: the stack is every process
 *   under the control child (the launcher, the six services, the gateway; the control child's own
 *   seeding and polling excluded), the engines are redis-server and PostgreSQL with its backends.
 *   A process's reaped children count through its cutime/cstime, so a backend that exits keeps
 *   its CPU in the sum.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { freePort, PostgresServerHandle, RedisServerHandle, startPostgresServer, startRedisServer } from '@app/testing/engines';

export type BenchProfile = 'embedded' | 'distributed-postgres';

export function benchProfile(): BenchProfile {
  const profile = process.env.BENCH_PROFILE ?? 'embedded';
  if (profile !== 'embedded' && profile !== 'distributed-postgres') throw new Error(`BENCH_PROFILE: "${profile}" is not embedded or distributed-postgres`);
  return profile;
}

// ---------------------------------------------------------------- process trees in /proc

interface Stat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

function statOf(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces.
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    return { pid, ppid: Number(fields[1]), comm: text.slice(text.indexOf('(') + 1, close), ticks };
  } catch {
    return null; // gone meanwhile
  }
}

function allStats(): Stat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => statOf(Number(name)))
    .filter((s): s is Stat => s !== null);
}

/** `roots` and every process below them. */
export function treeOf(roots: number[], stats = allStats()): number[] {
  const children = new Map<number, number[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const out: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The processes under the control child `pid` (the launcher and its children), not the control child itself. */
export function stackProcesses(pid: number): number[] {
  return treeOf([pid]).filter((p) => p !== pid);
}

/** Which engine a process is, by its command name: PostgreSQL's (postmaster, backends, workers), redis-server, or neither. */
function engineOf(comm: string): 'postgres' | 'redis' | null {
  if (comm === 'postgres') return 'postgres';
  return comm.startsWith('redis-server') ? 'redis' : null;
}

/** redis-server and PostgreSQL (postmaster, backends, background workers) started by this process. */
export function engineProcesses(): number[] {
  const stats = allStats();
  const roots = stats.filter((s) => s.ppid === process.pid && engineOf(s.comm) !== null).map((s) => s.pid);
  return treeOf(roots, stats);
}

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, reaped children included) of `pids`. */
export function cpuSecondsOf(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + (statOf(pid)?.ticks ?? 0), 0) / TICKS_PER_SECOND;
}

/**
 * What a process is, for the CPU breakdown: the gateway, a service by its folder, the launcher,
 * PostgreSQL (its postmaster and backends together) or redis-server.
 */
export function processLabel(pid: number, stat = statOf(pid)): string {
  const engine = stat && engineOf(stat.comm);
  if (engine) return engine;
  const args = safeRead(`/proc/${pid}/cmdline`).split('\0');
  const script = args.find((a) => a.endsWith('.js')) ?? stat?.comm ?? String(pid);
  const service = /dist\/services\/([^/]+)\//.exec(script)?.[1];
  if (service) return service;
  if (script.includes('dist/gateway/')) return 'gateway';
  return script.includes('launcher') ? 'launcher' : script;
}

/** CPU seconds of `pids` summed per label (`processLabel`): where a scenario's CPU goes. */
export function cpuSecondsByProcess(pids: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pid of pids) {
    const stat = statOf(pid);
    if (!stat) continue;
    const label = processLabel(pid, stat);
    out[label] = (out[label] ?? 0) + stat.ticks / TICKS_PER_SECOND;
  }
  return out;
}

// ---------------------------------------------------------------- engines (in the bench process)

export interface BenchEngines {
  /** The environment of the control child: where the stack finds its engines. */
  env: Record<string, string>;
  /** BENCH_PG_STATEMENTS=1: PostgreSQL's own account of a scenario's statements. */
  statements?: StatementStats;
  stop(): Promise<void>;
}

/** `pg_stat_statements` (with track_planning): reset before a scenario, its busiest statements after. */
export interface StatementStats {
  reset(): Promise<void>;
  /** The `count` statements with the most planning and execution time, per request of the scenario. */
  busiest(requests: number, count?: number): Promise<string[]>;
}

/** BENCH_PG_STATEMENTS=1 loads pg_stat_statements into the bench's PostgreSQL (a profile of the statements, issue 44). */
const STATEMENT_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on', 'pg_stat_statements.max': '2000' };

/** BENCH_PG_SETTINGS="shared_buffers=512MB work_mem=8MB": PostgreSQL settings of the bench's server, beside the test server's own. */
function serverSettings(text = ''): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new Error(`BENCH_PG_SETTINGS: "${pair}" is not name=value`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );
}

async function statementStats(url: string): Promise<StatementStats & { close(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    reset: async () => {
      await client.query('SELECT pg_stat_statements_reset()');
    },
    busiest: async (requests, count = 8) => {
      const { rows } = await client.query<{ ms: number; plan_ms: number; calls: string; query: string }>(
        `SELECT total_exec_time + total_plan_time AS ms, total_plan_time AS plan_ms, calls, query FROM pg_stat_statements
          WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY 1 DESC LIMIT $1`,
        [count],
      );
      const per = (n: number) => (n / Math.max(1, requests)).toFixed(3);
      return rows.map((r) => `${per(r.ms)} ms (plan ${per(r.plan_ms)}), ${per(Number(r.calls))} calls: ${r.query.replace(/\s+/g, ' ').slice(0, 160)}`);
    },
    close: () => client.end(),
  };
}

export async function startBenchEngines(): Promise<BenchEngines> {
  const redis: RedisServerHandle = await startRedisServer();
  const profileStatements = process.env.BENCH_PG_STATEMENTS === '1';
  let postgres: PostgresServerHandle | undefined;
  try {
    postgres = await startPostgresServer({ settings: { ...(profileStatements ? STATEMENT_SETTINGS : {}), ...serverSettings(process.env.BENCH_PG_SETTINGS) } });
    const url = await postgres.createDatabase('squadreviews');
    process.stdout.write(`engines: redis-server at ${redis.url}, PostgreSQL at ${url}\n`);
    const pg = postgres;
    const statements = profileStatements ? await statementStats(url) : undefined;
    return {
      env: { STORE: 'postgres', POSTGRES_URL: url, REDIS_URL: redis.url },
      statements,
      stop: async () => {
        await statements?.close();
        await Promise.all([redis.stop(), pg.stop()]);
      },
    };
  } catch (err) {
    await redis.stop();
    await postgres?.stop();
    throw err;
  }
}

// ---------------------------------------------------------------- the control child

/** `count` consecutive ports free right now, the first at base + 1 (the launcher's SERVICE_PORT_BASE convention). */
async function freePortBase(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    // Below Linux's ephemeral range (32768 up), which outgoing connections take from meanwhile.
    const base = 12_000 + Math.floor(Math.random() * 18_000);
    let ok = true;
    for (let i = 1; i <= count && ok; i++) ok = await free(base + i);
    if (ok) return base;
  }
  throw new Error('no free range of ports for the services');
}

/** JSON over fetch (keep-alive by default); the reply's `data`, or an error with the status. */
async function call<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json().catch(() => ({}))) as { data?: T; message?: unknown };
  if (!res.ok) throw Object.assign(new Error(`${method} ${path}: ${res.status} ${String(json.message ?? '')}`), { status: res.status });
  return json.data as T;
}

type Row = Record<string, unknown>;

/** Which service's port takes which import (the embedded stack's `StackImporter`, over HTTP). */
const IMPORT_OWNERS: Record<string, string> = { members: 'auth', follows: 'social', products: 'reviews', reviews: 'reviews' };
/** A call's rows: one import batch at most, and a body well under the services' 256 KB limit. */
const CALL_ROWS = 500;
const CALL_BYTES = 200_000;

/** Rows cut into calls of at most CALL_ROWS rows and about CALL_BYTES of JSON. */
function importCalls(rows: Row[]): Row[][] {
  const out: Row[][] = [[]];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length + 1;
    if (out[out.length - 1].length >= CALL_ROWS || (bytes + size > CALL_BYTES && out[out.length - 1].length > 0)) {
      out.push([]);
      bytes = 0;
    }
    out[out.length - 1].push(row);
    bytes += size;
  }
  return out.filter((c) => c.length > 0);
}

/**
 * The embedded stack's imports, called on each service's own port (`POST /api/internal/import/<kind>`
 * with the IMPORT_TOKEN this control child gave the stack): each service's own rules and events, in
 * batches, as the embedded profile's in-process imports. Same report shape.
 */
class HttpImporter {
  constructor(
    private readonly servicePorts: ReadonlyMap<string, number>,
    private readonly token: string,
  ) {}

  async import(kind: string, rows: Row[]): Promise<{ imported: unknown[]; rejected: unknown[] }> {
    const service = IMPORT_OWNERS[kind];
    const port = service && this.servicePorts.get(service);
    if (!port) throw new Error(`unknown import ${kind}`);
    const imported: unknown[] = [];
    const rejected: { index: number }[] = [];
    for (const part of importCalls(rows)) {
      const report = await call<{ imported: unknown[]; rejected: { index: number }[] }>(`http://127.0.0.1:${port}`, 'POST', `/api/internal/import/${kind}`, this.token, { rows: part });
      rejected.push(...report.rejected.map((r) => ({ ...r, index: r.index + imported.length })));
      imported.push(...report.imported);
    }
    return { imported, rejected };
  }
}

/**
 * Waits until every event emitted so far has been handled: every service's consumer group has read
 * its streams to the end with nothing pending, then no service's outbox holds a row, twice in a row.
 * In that order a look misses an event only if it reached its stream and left the outbox during
 * the look itself (a handled event's emitted one commits its outbox row before the handled one is
 * acknowledged, and its row is dropped only after it was published); the second look sees that
 * one on its stream. An outbox row whose event is on its stream already counts as published. The gateways' broadcast groups (socket pushes) are left out. While the bus is busy it
 * looks every 50 ms; a quiet look is confirmed at once, so a phase is not charged up to two
 * polling intervals of waiting (a 60-row import took 0.1 s, its settle 0.3 s).
 */
async function settle(pg: Client, redis: Redis): Promise<void> {
  const outboxes = await outboxTables(pg);
  const quiet = async (): Promise<boolean> => {
    const keys = await redis.keys('bus:*');
    // The groups' signs of life are other types of key.
    const types = await inOneTrip<string>(redis, keys.map((key) => ['type', key]));
    const streams = keys.filter((_, i) => types[i] === 'stream');
    const infos = await inOneTrip<unknown[]>(redis, streams.flatMap((stream) => [['xinfo', 'STREAM', stream], ['xinfo', 'GROUPS', stream]]));
    for (let i = 0; i < streams.length; i++) {
      const [info, groups] = [infos[2 * i], infos[2 * i + 1] as unknown[][]];
      const last = String(info[info.indexOf('last-generated-id') + 1]);
      for (const raw of groups) {
        const group = new Map<string, unknown>();
        for (let k = 0; k + 1 < raw.length; k += 2) group.set(String(raw[k]), raw[k + 1]);
        if (String(group.get('name')).startsWith('broadcast:')) continue;
        if (Number(group.get('pending')) > 0 || String(group.get('last-delivered-id')) !== last) return false;
      }
    }
    if (outboxes.length === 0) return true;
    const events = `${outboxes.map((t) => `(SELECT doc -> 'event' ->> 'id' AS id, doc -> 'event' ->> 'type' AS type FROM ${t} LIMIT ${PUBLISHED_LOOKUP})`).join(' UNION ALL ')}`;
    const { rows } = await pg.query<{ id: string; type: string }>(events);
    return rows.length === 0 || (rows.length < PUBLISHED_LOOKUP && (await published(redis, rows)));
  };
  for (let calm = 0; calm < 2; ) {
    calm = (await quiet()) ? calm + 1 : 0;
    if (calm === 0) await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Redis commands in one pipeline, their replies in order (a failed one throws). The looks of
 * `settle` went one round trip per command, about a hundred every 50 ms: CPU of the bench's own,
 * and of redis-server, taken from the stack whose import is being timed.
 */
async function inOneTrip<T>(redis: Redis, commands: string[][]): Promise<T[]> {
  if (commands.length === 0) return [];
  const replies = (await redis.pipeline(commands).exec()) ?? [];
  return replies.map(([err, reply]) => {
    if (err) throw err;
    return reply as T;
  });
}

/** Outbox rows looked up on their streams at most; more is a busy bus. */
const PUBLISHED_LOOKUP = 500;

/**
 * Whether every one of these outbox rows' events is on its stream already: a published row stays
 * until its service's next commit or 100 ms on (the bus drops them in batches), and its event is
 * then the groups' to handle, which the look at the streams covers.
 */
async function published(redis: Redis, events: { id: string; type: string }[]): Promise<boolean> {
  const types = [...new Set(events.map((e) => e.type))];
  const entries = await inOneTrip<[string, string[]][]>(redis, types.map((type) => ['xrevrange', `bus:${type}`, '+', '-', 'COUNT', String(PUBLISHED_LOOKUP)]));
  return types.every((type, i) => {
    const onStream = new Set(entries[i].map(([, fields]) => idOf(fields[fields.indexOf('data') + 1])));
    return events.every((e) => e.type !== type || onStream.has(e.id));
  });
}

/** An entry's event id: its envelope's first field as the bus writes it, without parsing the payload; parsed otherwise. */
function idOf(data: string): string {
  return /^\{"id":"([^"\\]+)"/.exec(data)?.[1] ?? (JSON.parse(data) as { id: string }).id;
}

/** Every service's outbox table, quoted (each service keeps its tables in its own schema). */
async function outboxTables(pg: Client): Promise<string[]> {
  const { rows } = await pg.query<{ table_schema: string }>(`SELECT table_schema FROM information_schema.tables WHERE table_name = 'bus_outbox'`);
  return rows.map(({ table_schema }) => `"${table_schema.replace(/"/g, '""')}".bus_outbox`);
}

/** Until no service's mail outbox (auth's mail_outbox, notifications' email_outbox) holds a row not sent yet. */
async function mailSent(pg: Client): Promise<void> {
  const { rows } = await pg.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables WHERE table_name IN ('mail_outbox', 'email_outbox')`,
  );
  const unsent = rows.map(({ table_schema, table_name }) => `(SELECT count(*) FROM "${table_schema}"."${table_name}" WHERE doc -> 'sent_at' = 'null'::jsonb)`);
  if (unsent.length === 0) return;
  // A row the mailer keeps refusing waits for its back-off: measuring starts anyway after a while.
  const deadline = Date.now() + 300_000;
  while (Number((await pg.query<{ n: string }>(`SELECT ${unsent.join(' + ')} AS n`)).rows[0].n) > 0) {
    if (Date.now() > deadline) return void process.stderr.write('mail still unsent after 300 s; measuring anyway\n');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The control child (`--serve-distributed <dataDir>`): starts the launcher, says ready with the
 * gateway's URL, then answers bench.ts's messages as the embedded stack child does.
 */
export async function serveDistributed(dataDir: string): Promise<void> {
  const started = performance.now();
  const gatewayPort = await freePort();
  const serviceBase = await freePortBase(6);
  const importToken = randomBytes(24).toString('hex');
  const launcher: ChildProcess = spawn(process.execPath, [join(__dirname, '../../launcher/src/distributed.js')], {
    // Seven processes booting on a shared machine can take longer than the launcher's 60 s default.
    env: { LAUNCHER_READY_TIMEOUT_MS: '180000', ...process.env, DATA_DIR: dataDir, PORT: String(gatewayPort), SERVICE_PORT_BASE: String(serviceBase), IMPORT_TOKEN: importToken },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const servicePorts = new Map<string, number>();
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    launcher.once('exit', (code) => reject(new Error(`the distributed launcher exited with ${code} before it was ready`)));
    launcher.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('{"launcher":"started"')) {
          const started = JSON.parse(line) as { service: string; replica: number; port: number };
          if (started.replica === 0) servicePorts.set(started.service, started.port);
        }
        if (!line.startsWith('{"launcher":"ready"')) continue;
        resolve((JSON.parse(line) as { gateways: string[] }).gateways[0]);
      }
    });
  });
  launcher.stdout?.resume();
  const pg = new Client({ connectionString: process.env.POSTGRES_URL });
  await pg.connect();
  const redis = new Redis(process.env.REDIS_URL ?? '');
  const importer = new HttpImporter(servicePorts, importToken);
  process.send?.({ ready: url, bootMs: Math.round(performance.now() - started) });

  process.on('message', (msg: unknown) => {
    if (msg === 'settle') void settle(pg, redis).then(() => process.send?.('settled'));
    // Each service process sends its own mail; measuring waits until none is left to send, as the embedded stack's does.
    if (msg === 'send-mail') void mailSent(pg).then(() => process.send?.('settled'));
    // What PostgreSQL's manual advises after a bulk load ("Populating a Database": run ANALYZE),
    // with VACUUM: otherwise autovacuum works through the imported tables while the routes are
    // measured, and its CPU is counted as theirs (the engines' share of a like at 100,000 reviews
    // was 1.9 ms against 1.2 at 5,000).
    if (msg === 'after-import') void pg.query('VACUUM (ANALYZE)').then(() => process.send?.('settled'));
    const command = msg as { import?: string; rows?: Row[] };
    if (command?.import && command.rows) {
      void importer.import(command.import, command.rows).then(
        (imported) => process.send?.({ imported }),
        (err: Error) => {
          process.stderr.write(`import failed: ${err.stack}\n`);
          process.exit(1);
        },
      );
    }
    if (msg === 'memory' || msg === 'memory-gc') {
      // The stack's resident set summed over its processes; no heap figures across processes.
      const rss = Math.round(stackProcesses(process.pid).reduce((sum, pid) => sum + (statusMbOf(pid, 'VmRSS') || 0), 0));
      process.send?.({ memory: { rss, heapTotal: NaN, heapUsed: NaN, external: NaN, arrayBuffers: NaN, afterGc: false } });
    }
  });
  process.on('SIGTERM', () => {
    const exited = new Promise((r) => launcher.once('exit', r));
    launcher.kill('SIGTERM');
    void exited.finally(async () => {
      await pg.end().catch(() => undefined);
      redis.disconnect();
      process.exit(0);
    });
  });
}

const STATUS_FIELDS = { VmRSS: /VmRSS:\s+(\d+) kB/, VmHWM: /VmHWM:\s+(\d+) kB/ };

/** A memory figure of a process's /proc status (VmRSS: now; VmHWM: its peak since the last reset), MB; NaN once it is gone. */
export function statusMbOf(pid: number, field: keyof typeof STATUS_FIELDS): number {
  const kb = STATUS_FIELDS[field].exec(safeRead(`/proc/${pid}/status`))?.[1];
  return kb === undefined ? NaN : Number(kb) / 1024;
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
