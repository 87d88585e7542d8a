import { ChildProcess, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { planProcesses, ProcessSpec } from '../../launcher/src/distributed';
import { SERVICE_CATALOGUE } from '../../launcher/src/service-catalogue';
import { createStore } from '@app/store';
import { sleep, until } from '../distributed/stack-client';
import { Host, Network } from './hosts';
import { PostgresReader, StoreReader } from './store-reader';

export type StoreEngine = 'sqlite' | 'postgres';

/** Ports inside the namespaces: each host has its own port space, so the usual ones are free. */
const REDIS_PORT = 6379;
const POSTGRES_PORT = 5432;
const GATEWAY_PORT = 3000;
const READY_TIMEOUT_MS = 120_000;

/**
 * Where each process runs. Host 2: the gateway and the replicas the gateway talks to for most
 * routes (it has one URL per service, replica 0's, as `npm run start:distributed`); host 3: the
 * other replicas, plus replica 0 of notifications and of squads, so routes to host 3 exist (they
 * are the ones that must fail fast while it is cut off), and squads, with no replica elsewhere,
 * must catch up on what it missed.
 */
export const PLACEMENT: Record<string, ('h2' | 'h3')[]> = {
  gateway: ['h2'],
  auth: ['h2'],
  social: ['h2', 'h3'],
  reviews: ['h2', 'h3'],
  messaging: ['h2', 'h3'],
  notifications: ['h3', 'h2'],
  squads: ['h3'],
};

interface Running {
  spec: ProcessSpec;
  host: Host;
  child: ChildProcess;
  output: string[];
}

export interface StackSettings {
  store: StoreEngine;
  dataDir: string;
  /** Extra environment for every service and the gateway. */
  env: Record<string, string>;
}

/** The directory of Debian's PostgreSQL binaries (the newest installed), or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : undefined;
}

/** PostgreSQL refuses to run as root: it runs as the `postgres` account Debian's package creates. */
function postgresAccount(): { uid: number; gid: number } {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) throw new Error('no postgres account: install postgresql (Debian) to run the multi-host test on PostgreSQL');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Host 1's engines (Redis, and PostgreSQL when the store is postgres), the services on hosts 2
 * and 3 as the distributed launcher plans them (same scripts, same environment, same replica
 * numbering), each started with `ip netns exec` on its host.
 */
export class MultiHostStack {
  readonly h1: Host;
  readonly h2: Host;
  readonly h3: Host;
  private readonly running: Running[] = [];
  private readonly specs: ProcessSpec[];
  private redis?: Running;
  private postgres?: Running;
  private postgresDir = '';

  constructor(
    private readonly network: Network,
    private readonly settings: StackSettings,
  ) {
    [this.h1, this.h2, this.h3] = ['h1', 'h2', 'h3'].map((name) => network.host(name));
    const replicas = Object.entries(PLACEMENT)
      .filter(([, hosts]) => hosts.length > 1)
      .map(([service, hosts]) => `${service}=${hosts.length}`)
      .join(',');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...settings.env,
      REDIS_URL: this.redisUrl,
      DATA_DIR: settings.dataDir,
      HOST: '0.0.0.0',
      PORT: String(GATEWAY_PORT),
      STORE: settings.store,
      ...(settings.store === 'postgres' ? { POSTGRES_URL: this.postgresUrl } : {}),
    };
    this.specs = planProcesses(env, ['--replicas', replicas], join(__dirname, '../../../dist')).map((spec) =>
      spec.service === 'gateway' ? { ...spec, env: { ...spec.env, ...this.serviceUrls() } } : spec,
    );
  }

  get redisUrl(): string {
    return `redis://${this.h1.ip}:${REDIS_PORT}`;
  }

  get postgresUrl(): string {
    return `postgres://squad@${this.h1.ip}:${POSTGRES_PORT}/squadreviews`;
  }

  get gateway(): string {
    return `http://${this.h2.ip}:${GATEWAY_PORT}`;
  }

  hostOf(service: string, replica: number): Host {
    return this.network.host(PLACEMENT[service][replica]);
  }

  /** The URL of one service replica, reached from the test (root namespace). */
  serviceUrl(service: string, replica: number): string {
    const spec = this.specs.find((s) => s.service === service && s.replica === replica);
    if (!spec) throw new Error(`no ${service}#${replica}`);
    return `http://${this.hostOf(service, replica).ip}:${spec.port}`;
  }

  /** The gateway's one URL per service: replica 0's address on its host. */
  private serviceUrls(): Record<string, string> {
    return Object.fromEntries(
      SERVICE_CATALOGUE.map(({ definition, port }) => [`${definition.name.toUpperCase()}_SERVICE_URL`, `http://${this.hostOf(definition.name, 0).ip}:${port}`]),
    );
  }

  /** The pid of a running service replica (the consumer names of the bus carry it). */
  pid(service: string, replica: number): number {
    const run = this.running.filter((r) => r.spec.service === service && r.spec.replica === replica).at(-1);
    if (!run?.child.pid) throw new Error(`${service}#${replica} is not running`);
    return run.child.pid;
  }

  async start(): Promise<void> {
    await this.startRedis();
    if (this.settings.store === 'postgres') await this.startPostgres();
    await Promise.all([this.startHost(this.h2), this.startHost(this.h3)]);
  }

  /** Every service process placed on `host`, started and ready (a host booting, or booting again). */
  async startHost(host: Host): Promise<void> {
    const mine = this.specs.filter((spec) => this.hostOf(spec.service, spec.replica) === host);
    const runs = mine.map((spec) => this.spawn(host, `${spec.service}#${spec.replica}`, process.execPath, [spec.script], spec.env, spec));
    await Promise.all(runs.map((run) => this.ready(run)));
  }

  /** Polls /health/ready (store and bus answer) from the test's namespace, across the bridge. */
  private async ready(run: Running): Promise<void> {
    const url = `http://${run.host.ip}:${run.spec.port}/health/ready`;
    await until(
      async () => {
        if (run.child.exitCode !== null || run.child.signalCode !== null) {
          throw new Error(`${label(run)} exited (${run.child.exitCode ?? run.child.signalCode}) before it was ready:\n${run.output.join('\n')}`);
        }
        const res = await fetch(url, { signal: AbortSignal.timeout(1_000) }).catch(() => undefined);
        return res?.ok;
      },
      `${label(run)} ready at ${url}`,
      READY_TIMEOUT_MS,
    );
  }

  /** Every process of the stack still running, by label: a crash shows up as a missing or changed pid. */
  pids(): Record<string, number | undefined> {
    const out: Record<string, number | undefined> = {};
    for (const run of this.running) {
      const alive = run.child.exitCode === null && run.child.signalCode === null;
      out[label(run)] = alive ? run.child.pid : undefined;
    }
    return out;
  }

  private spawn(host: Host, name: string, command: string, args: string[], env: NodeJS.ProcessEnv, spec?: ProcessSpec, cwd?: string): Running {
    const child = this.network.spawn(host, command, args, env, cwd);
    const run: Running = { spec: spec ?? { service: name, replica: 0, port: 0, script: command, env }, host, child, output: [] };
    const keep = (chunk: Buffer) => {
      run.output.push(...chunk.toString().split('\n').filter(Boolean));
      if (run.output.length > 60) run.output.splice(0, run.output.length - 60);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    if (spec) this.running.push(run);
    return run;
  }

  private async startRedis(): Promise<void> {
    this.redis = this.spawn(this.h1, 'redis-server', 'redis-server', ['--port', String(REDIS_PORT), '--bind', this.h1.ip, '--protected-mode', 'no', '--save', '', '--appendonly', 'no'], process.env);
    const client = new Redis(this.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    try {
      await until(async () => (await client.connect().then(() => client.ping()).catch(() => undefined)) === 'PONG', 'redis-server on host 1', 10_000);
    } finally {
      client.disconnect();
    }
  }

  /** A private PostgreSQL on host 1, initialised in the data folder, owned by the postgres account. */
  private async startPostgres(): Promise<void> {
    const bin = postgresBinaries();
    if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql: install postgresql (Debian)');
    const { uid, gid } = postgresAccount();
    this.postgresDir = join(this.settings.dataDir, 'postgresql');
    mkdirSync(this.postgresDir, { mode: 0o700 });
    chownSync(this.postgresDir, uid, gid);
    // The account must get through the (root-owned, mkdtemp 0700) data folder to its own.
    chmodSync(this.settings.dataDir, 0o711);
    const asPostgres = ['--reuid', String(uid), '--regid', String(gid), '--clear-groups'];
    const init = spawnSync('setpriv', [...asPostgres, join(bin, 'initdb'), '-D', this.postgresDir, '-U', 'squad', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], {
      encoding: 'utf8',
      cwd: this.postgresDir,
    });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
    // The services reach it across the bridge, from hosts 2 and 3.
    appendFileSync(join(this.postgresDir, 'pg_hba.conf'), `host all all ${this.h1.ip.replace(/\d+$/, '0')}/24 trust\n`);
    await this.runPostgres();
    const created = spawnSync(join(bin, 'createdb'), ['-h', this.h1.ip, '-p', String(POSTGRES_PORT), '-U', 'squad', 'squadreviews'], { encoding: 'utf8' });
    if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);
  }

  private async runPostgres(): Promise<void> {
    const bin = postgresBinaries() as string;
    const { uid, gid } = postgresAccount();
    const args = ['--reuid', String(uid), '--regid', String(gid), '--clear-groups', join(bin, 'postgres'), '-D', this.postgresDir, '-p', String(POSTGRES_PORT)];
    // fsync off: a restart of the server (not of the machine) loses nothing without it, and it spares the shared disk.
    args.push('-c', `listen_addresses=${this.h1.ip}`, '-c', `unix_socket_directories=${this.postgresDir}`, '-c', 'fsync=off', '-c', 'max_connections=300');
    this.postgres = this.spawn(this.h1, 'postgres', 'setpriv', args, process.env, undefined, this.postgresDir);
    const postgres = this.postgres;
    await until(
      () => {
        if (postgres.child.exitCode !== null) throw new Error(`postgres exited (${postgres.child.exitCode}):\n${postgres.output.join('\n')}`);
        return spawnSync(join(bin, 'pg_isready'), ['-h', this.h1.ip, '-p', String(POSTGRES_PORT), '-U', 'squad', '-q']).status === 0;
      },
      'postgres on host 1',
      30_000,
    );
  }

  /**
   * PostgreSQL stopped (fast shutdown: open sessions are cut, as in a restart for an upgrade)
   * and, after `downMs`, started again on the same data and port. Returns how long it was down.
   */
  async restartPostgres(downMs: number): Promise<number> {
    const postgres = this.postgres;
    if (!postgres) throw new Error('PostgreSQL is not running (STORE is not postgres)');
    const stoppedAt = Date.now();
    const exited = new Promise((done) => postgres.child.once('exit', done));
    postgres.child.kill('SIGINT');
    await exited;
    await sleep(downMs);
    await this.runPostgres();
    return Date.now() - stoppedAt;
  }

  /**
   * The store of `service` as the test reads it. On PostgreSQL plain SELECTs on its schema (no DDL,
   * no session of its own, see PostgresReader); on SQLite the service's own store.
   */
  async openStore(service: string): Promise<StoreReader> {
    const definition = SERVICE_CATALOGUE.find((e) => e.definition.name === service)?.definition;
    if (!definition) throw new Error(`no service ${service}`);
    if (this.settings.store === 'postgres') return new PostgresReader(this.postgresUrl, service);
    const store = createStore(service, { engine: 'sqlite', dataDir: this.settings.dataDir });
    await store.open(definition.collections);
    return store;
  }

  /** Processes that exited though the test neither killed their host nor stopped them, with their last lines. */
  crashed(): string[] {
    return this.running
      .filter((r) => r.child.exitCode !== null && r.child.signalCode === null)
      .map((r) => `${label(r)} on ${r.host.name} (pid ${r.child.pid}) exited with ${r.child.exitCode}:\n${r.output.slice(-15).join('\n')}`);
  }

  /** The last lines of every process, for a failure message. */
  tail(): string {
    return [this.redis, this.postgres, ...this.running]
      .filter((r): r is Running => r !== undefined)
      .map((r) => `--- ${label(r)} on ${r.host.name} (pid ${r.child.pid}, ${r.child.exitCode ?? r.child.signalCode ?? 'running'})\n${r.output.slice(-15).join('\n')}`)
      .join('\n');
  }
}

function label(run: Running): string {
  return run.spec.port ? `${run.spec.service}#${run.spec.replica}` : run.spec.service;
}
