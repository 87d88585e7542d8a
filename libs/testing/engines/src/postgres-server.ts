import { ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './redis-server';

export interface PostgresServerHandle {
  /** postgres://postgres@127.0.0.1:<port>/postgres: the server's own database (trust authentication). */
  url: string;
  port: number;
  /** The cluster's folder: `startPostgresServer({ dataDir })` starts the same data again. */
  dataDir: string;
  /** A URL of a new, empty database on this server. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (a fast shutdown) and removes its data unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** SIGKILL to the postmaster and its backends: the server dies whole, as in a crash; its data stays for a restart. */
  kill(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * The folder of Debian's PostgreSQL binaries (`initdb`, `postgres`): POSTGRES_BIN_DIR, else the
 * newest /usr/lib/postgresql/<version>/bin (Debian keeps them off PATH), else null.
 */
export function postgresBinDir(): string | null {
  const given = process.env.POSTGRES_BIN_DIR;
  if (given) return existsSync(join(given, 'postgres')) ? given : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : null;
}

/** True when a PostgreSQL server can be started here (suites decide to skip on false, synchronously). */
export function postgresServerAvailable(): boolean {
  return postgresBinDir() !== null;
}

/**
 * PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the `postgres`
 * user Debian's package creates (or `nobody`), owning its data folder. Null when not root.
 */
function unprivilegedUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const users = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .filter((f) => f.length >= 4);
  for (const name of ['postgres', 'nobody']) {
    const entry = users.find((f) => f[0] === name);
    if (entry) return { uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  throw new Error('Running as root and no postgres or nobody user to run PostgreSQL as');
}

/**
 * Starts a throw-away PostgreSQL (its own cluster in a temporary folder, trust authentication,
 * locale C so strings order by code point as in MongoDB) on a free port, for one test suite.
 * fsync is off: a killed *server* loses nothing (the OS keeps what it wrote), only a power cut
 * would. `port` and `dataDir` start it where a previous one was (a restart drill); `host` is the
 * address it listens on (127.0.0.1); `settings` are further server settings (`-c name=value`).
 */
export async function startPostgresServer(
  options: { port?: number; dataDir?: string; host?: string; settings?: Record<string, string> } = {},
): Promise<PostgresServerHandle> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error('PostgreSQL binaries not found (install postgresql, or set POSTGRES_BIN_DIR)');
  const user = unprivilegedUser();
  const dataDir = options.dataDir ?? (await initCluster(bin, user));
  const cluster: Cluster = { bin, user, dataDir, host: options.host ?? '127.0.0.1', settings: options.settings ?? {} };
  if (options.port !== undefined) return relaunch(cluster, options.port);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await launch(cluster, await freePort());
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/**
 * A restart on a killed server's folder: the killed postmaster's children (backends, the
 * checkpointer) hold its shared memory until they notice it died, and a new postmaster refuses
 * to start meanwhile ("pre-existing shared memory block is still in use"). Tried again for a while.
 */
async function relaunch(cluster: Cluster, port: number): Promise<PostgresServerHandle> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      return await launch(cluster, port);
    } catch (err) {
      if (!/pre-existing shared memory block/.test((err as Error).message) || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function initCluster(bin: string, user: { uid: number; gid: number } | null): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'pg-test-'));
  if (user) chownSync(root, user.uid, user.gid);
  const dataDir = join(root, 'data');
  const { code, output } = await run(
    join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions'],
    user,
    root,
  );
  if (code !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${code}): ${output.trim()}`);
  }
  return dataDir;
}

/**
 * How the server's processes are spawned: as `user` when root, and from the cluster's own folder
 * (the test's working directory, a CI clone under /root say, may be closed to that user).
 */
function spawnOptions(user: { uid: number; gid: number } | null, cwd: string) {
  return { stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[], cwd, ...(user && { uid: user.uid, gid: user.gid }) };
}

function run(command: string, args: string[], user: { uid: number; gid: number } | null, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, spawnOptions(user, cwd));
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** A cluster's folder and how its server runs: the binaries, the user, the address and further settings. */
interface Cluster {
  bin: string;
  user: { uid: number; gid: number } | null;
  dataDir: string;
  host: string;
  settings: Record<string, string>;
}

async function launch({ bin, user, dataDir, host, settings: extra }: Cluster, port: number): Promise<PostgresServerHandle> {
  const settings = {
    listen_addresses: host,
    port: String(port),
    unix_socket_directories: '', // TCP only: no socket folder to own
    fsync: 'off',
    full_page_writes: 'off',
    max_connections: '300',
    dynamic_shared_memory_type: 'mmap', // not /dev/shm, which a container may keep small
    ...extra,
  };
  const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const child = spawn(join(bin, 'postgres'), args, spawnOptions(user, dirname(dataDir)));
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `postgres://postgres@${host}:${port}/postgres`;
  try {
    await Promise.race([
      waitUntilReady(url),
      exited.then((code) => {
        throw new Error(`postgres exited with ${code} before it was ready: ${output.trim()}`);
      }),
    ]);
  } catch (err) {
    process.removeListener('exit', killOnExit);
    await stopChild(child, exited, 'SIGINT');
    throw err;
  }

  let stopping: Promise<void> | undefined;
  const removeData = () => rmSync(join(dataDir, '..'), { recursive: true, force: true });
  return {
    url,
    port,
    dataDir,
    createDatabase: async (name) => {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@${host}:${port}/${encodeURIComponent(name)}`;
    },
    stop: (stopOptions = {}) => {
      stopping ??= stopChild(child, exited, 'SIGINT').finally(() => {
        process.removeListener('exit', killOnExit);
        if (!stopOptions.keepData) removeData();
      });
      return stopping;
    },
    kill: () => {
      // The backends first: a killed postmaster's backends serve their connections until they notice,
      // so a client's last statement could still land after the "crash".
      killChildrenOf(child.pid);
      stopping ??= stopChild(child, exited, 'SIGKILL').finally(() => process.removeListener('exit', killOnExit));
      return stopping;
    },
  };
}

/** SIGKILL to every process whose parent is `pid` (Linux's /proc; elsewhere nothing). */
function killChildrenOf(pid: number | undefined): void {
  if (pid === undefined || !existsSync('/proc')) return;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) is in parentheses and may hold spaces; the parent's pid follows the state.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal); // SIGINT: PostgreSQL's fast shutdown
  const hard = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(hard);
}

async function waitUntilReady(url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last: unknown;
  while (Date.now() < deadline) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`postgres at ${url} did not answer within ${READY_TIMEOUT_MS} ms: ${(last as Error)?.message}`);
}
