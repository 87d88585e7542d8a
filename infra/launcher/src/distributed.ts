import { ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { embeddedJwtSecret } from './jwt-secret';
import { SERVICE_PORTS } from './service-ports';

/**
 * `npm run start:distributed`: every service its own process over Redis Streams
 * (ARCHITECTURE §2). `--replicas notifications=2,gateway=2` runs several replicas of a
 * service (they share its consumer group and split its events) or of the gateway
 * (gateway i listens on PORT+i; they share socket rooms through the Redis adapter).
 *
 * The replicas of a service share its store: one SQLite file (WAL lets several processes on one
 * machine use it) or, with STORE=postgres (POSTGRES_URL), its schema in one PostgreSQL database,
 * which replicas on other machines can reach too; or, with STORE=mongo, one database.
 *
 * On stdout, besides the children's own log lines, the launcher writes one JSON line per
 * process it starts or loses (`{"launcher":"started",service,replica,pid,port}`,
 * `{"launcher":"exited",...}`) and `{"launcher":"ready",gateways}` once every process
 * answers /health/ready. A child that fails to start stops everything with exit code 1;
 * a child that dies later is started again on the same port and data folder.
 */

const READY_TIMEOUT_MS = Number(process.env.LAUNCHER_READY_TIMEOUT_MS ?? 60_000);
const STOP_TIMEOUT_MS = 10_000;
const RESTART_DELAY_MS = 500;
/** More restarts of one process than this and the launcher gives up (a crash loop helps nobody). */
const MAX_RESTARTS = 5;
const DEFAULT_PORT_BASE = 3100;
const SEMI_SPACE_MB = 4;

export interface ProcessSpec {
  /** A service name or `gateway`. */
  service: string;
  replica: number;
  port: number;
  script: string;
  env: NodeJS.ProcessEnv;
}

interface Running {
  spec: ProcessSpec;
  child: ChildProcess;
  restarts: number;
}

export function parseReplicas(argv: string[]): Map<string, number> {
  const replicas = new Map<string, number>();
  argv.forEach((arg, i) => {
    const value = arg === '--replicas' ? argv[i + 1] : arg.startsWith('--replicas=') ? arg.slice(11) : undefined;
    for (const pair of value?.split(',') ?? []) {
      const [name, count] = pair.split('=');
      const n = Number(count);
      if (!name || !Number.isInteger(n) || n < 1) throw new Error(`--replicas: "${pair}" is not <service>=<count>`);
      replicas.set(name, n);
    }
  });
  return replicas;
}

/**
 * V8's young generation is 16 MB per semi-space by default, of which a process serving small
 * requests uses a fraction; with seven processes or more on one machine that headroom was ~150 MB
 * of RSS. 4 MB each, unless NODE_OPTIONS already sets a size (docs/OPERATIONS.md).
 */
export function withSmallYoungGeneration(nodeOptions: string | undefined): string {
  if (nodeOptions?.includes('--max-semi-space-size')) return nodeOptions;
  return [nodeOptions, `--max-semi-space-size=${SEMI_SPACE_MB}`].filter(Boolean).join(' ');
}

/**
 * glibc malloc's settings for a process whose JavaScript runs on one thread, each unless `env`
 * sets it (docs/OPERATIONS.md, Memory):
 * - one arena: glibc gives each thread that allocates an arena of its own (V8's workers, libuv's
 *   pool), each keeping the memory freed in it;
 * - fixed thresholds: glibc raises its mmap threshold to the size of each large block freed (up
 *   to 32 MB) and its trim threshold to twice that. Once a process had read its 5-7 MB bundle,
 *   every block below that size came from the heap, and up to twice that stayed there free; at
 *   load a service held 10-18 MB that `malloc_trim` gave back. Blocks from 128 KB on are mapped
 *   and unmapped on their own, and the heap's free top goes back past 128 KB.
 */
export function withLeanMalloc(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '1',
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
    MALLOC_TRIM_THRESHOLD_: env.MALLOC_TRIM_THRESHOLD_ ?? '131072',
  };
}

/** Every process to run, in start order: the services (replicas together), then the gateways. */
export function planProcesses(env: NodeJS.ProcessEnv, argv: string[], dist: string): ProcessSpec[] {
  const replicas = parseReplicas(argv);
  const known = new Set([...SERVICE_PORTS.map((e) => e.name), 'gateway']);
  for (const name of replicas.keys()) {
    if (!known.has(name)) throw new Error(`--replicas: unknown service "${name}" (one of ${[...known].join(', ')})`);
  }
  if (env.STORE === 'postgres' && !env.POSTGRES_URL) {
    throw new Error('STORE=postgres needs POSTGRES_URL (for example postgres://squadreviews@127.0.0.1:5432/squadreviews)');
  }
  const dataDir = resolve(env.DATA_DIR ?? '.data-distributed');
  const portOffset = Number(env.SERVICE_PORT_BASE ?? DEFAULT_PORT_BASE) - DEFAULT_PORT_BASE;
  const common: NodeJS.ProcessEnv = {
    ...env,
    BUS: 'redis',
    REDIS_URL: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    DATA_DIR: dataDir,
    JWT_SECRET: env.JWT_SECRET ?? embeddedJwtSecret(dataDir),
    NODE_OPTIONS: withSmallYoungGeneration(env.NODE_OPTIONS),
    ...withLeanMalloc(env),
  };
  const specs: ProcessSpec[] = [];
  const serviceUrls: Record<string, string> = {};
  for (const entry of SERVICE_PORTS) {
    const name = entry.name;
    for (let replica = 0; replica < (replicas.get(name) ?? 1); replica++) {
      const port = entry.port + portOffset + replica * 100;
      specs.push({
        service: name,
        replica,
        port,
        script: join(dist, `services/${name}/src/main.js`),
        env: { ...common, PORT: String(port), REPLICA: String(replica) },
      });
      // The gateway has one URL per service: replica 0 answers every read and write routed to it.
      if (replica === 0) serviceUrls[`${name.toUpperCase()}_SERVICE_URL`] = `http://127.0.0.1:${port}`;
    }
  }
  const gatewayPort = Number(env.PORT ?? 3000);
  for (let replica = 0; replica < (replicas.get('gateway') ?? 1); replica++) {
    specs.push({
      service: 'gateway',
      replica,
      port: gatewayPort + replica,
      script: join(dist, 'gateway/src/main.js'),
      env: { ...common, ...serviceUrls, PORT: String(gatewayPort + replica), REPLICA: String(replica) },
    });
  }
  return withMetricsPorts(specs, env.METRICS_PORT);
}

/** With METRICS_PORT set, each process its own metrics port from it on, in start order (they share the host). */
function withMetricsPorts(specs: ProcessSpec[], first: string | undefined): ProcessSpec[] {
  if (!first) return specs;
  return specs.map((spec, i) => ({ ...spec, env: { ...spec.env, METRICS_PORT: String(Number(first) + i) } }));
}

/** SERVICE_NODE_ARGS: Node options NODE_OPTIONS refuses (`--cpu-prof`, `--heap-prof`), for every child. */
function nodeArgs(env: NodeJS.ProcessEnv): string[] {
  return (env.SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
}

function announce(line: { launcher: 'started' | 'exited' | 'ready' } & Record<string, unknown>): void {
  process.stdout.write(JSON.stringify(line) + '\n');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls /health/ready until it answers 200; rejects if the process exits first or time runs out. */
async function waitReady(run: Running): Promise<void> {
  const { spec, child } = run;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${label(spec)} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    }
    if (await answersReady(spec.port)) return;
    await sleep(100);
  }
  throw new Error(`${label(spec)} was not ready on port ${spec.port} within ${READY_TIMEOUT_MS} ms`);
}

/**
 * Whether /health/ready answers 200. Node's http client, not fetch: undici's load and a fetch
 * every 100 ms per child made the launcher the busiest process of a start (issue 44).
 */
function answersReady(port: number): Promise<boolean> {
  return new Promise((done) => {
    const req = get({ host: '127.0.0.1', port, path: '/health/ready', timeout: 1_000, agent: false }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(false)); // not listening yet
  });
}

function label(spec: ProcessSpec): string {
  return `${spec.service}#${spec.replica}`;
}

class Launcher {
  private readonly running: Running[] = [];
  private stopping?: Promise<void>;

  constructor(private readonly specs: ProcessSpec[]) {}

  async start(): Promise<void> {
    for (const spec of this.specs) this.running.push({ spec, child: this.spawn(spec, 0), restarts: 0 });
    await Promise.all(this.running.map(waitReady));
    for (const run of this.running) this.supervise(run);
    const gateways = this.specs.filter((s) => s.service === 'gateway').map((s) => `http://127.0.0.1:${s.port}`);
    announce({ launcher: 'ready', gateways });
  }

  /** SIGTERM to every child, SIGKILL to those still running after STOP_TIMEOUT_MS. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const alive = this.running.map((r) => r.child).filter((c) => c.exitCode === null && c.signalCode === null);
      const exits = alive.map((c) => new Promise<void>((r) => c.once('exit', () => r())));
      alive.forEach((c) => c.kill('SIGTERM'));
      const timer = setTimeout(() => alive.forEach((c) => c.kill('SIGKILL')), STOP_TIMEOUT_MS);
      await Promise.all(exits);
      clearTimeout(timer);
    })();
    return this.stopping;
  }

  private spawn(spec: ProcessSpec, restarts: number): ChildProcess {
    const child = spawn(process.execPath, [...nodeArgs(spec.env), spec.script], { env: spec.env, stdio: 'inherit' });
    announce({ launcher: 'started', service: spec.service, replica: spec.replica, pid: child.pid, port: spec.port, restarts });
    child.once('exit', (code, signal) => {
      announce({ launcher: 'exited', service: spec.service, replica: spec.replica, pid: child.pid, code, signal });
    });
    return child;
  }

  /** After start-up a dead child comes back on the same port and data folder (a crashed replica rejoins its group). */
  private supervise(run: Running): void {
    run.child.once('exit', () => {
      if (this.stopping) return;
      if (run.restarts >= MAX_RESTARTS) {
        process.stderr.write(`launcher: ${label(run.spec)} died ${MAX_RESTARTS + 1} times, stopping everything\n`);
        void this.stop().then(() => process.exit(1));
        return;
      }
      setTimeout(() => {
        if (this.stopping) return;
        run.restarts += 1;
        run.child = this.spawn(run.spec, run.restarts);
        this.supervise(run);
      }, RESTART_DELAY_MS);
    });
  }
}

async function main(): Promise<void> {
  let specs: ProcessSpec[];
  try {
    specs = planProcesses(process.env, process.argv.slice(2), resolve(__dirname, '../../..'));
  } catch (err) {
    process.stderr.write(`launcher: ${(err as Error).message}\n`);
    process.exit(2);
  }
  if ((process.env.STORE ?? 'sqlite') === 'sqlite') {
    // Before any replica opens the file: an import is one process's job.
    // Loaded only here: the store engines are this process's only heavy dependency.
    const { migrateNedbData } = await import('./nedb-migration');
    await migrateNedbData(specs[0].env.DATA_DIR ?? '', SERVICE_PORTS.map((e) => e.name));
  }
  const launcher = new Launcher(specs);
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) process.stderr.write(`launcher: ${signal} again, still waiting for children to stop\n`);
    void launcher.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    await launcher.start();
  } catch (err) {
    process.stderr.write(`launcher: ${(err as Error).message}; stopping every process\n`);
    await launcher.stop();
    process.exit(1);
  }
}

/**
 * The launcher only spawns and watches: no code of it runs hot, and V8's optimizing tiers would
 * only fault in their part of the node binary, 4 MB of resident memory (docs/PERFORMANCE.md).
 */
function withoutOptimizingTiers(): void {
  for (const flag of ['--no-opt', '--no-maglev', '--no-sparkplug']) setFlagsFromString(flag);
}

if (require.main === module) {
  withoutOptimizingTiers();
  void main();
}
