import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

export interface RedisServerHandle {
  url: string;
  stop(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER_BIN ?? 'redis-server';
const READY_TIMEOUT_MS = 5_000;

/** True when a redis-server binary can be run here (suites decide to skip on false, synchronously). */
export function redisServerAvailable(): boolean {
  const probe = spawnSync(BINARY, ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/**
 * Starts a throw-away redis-server (no persistence) on a free port, for one test suite.
 * Each suite gets its own server, so suites never see each other's keys. `port` starts it
 * on that port instead (an outage drill brings Redis back where the clients expect it).
 */
export async function startRedisServer(options: { port?: number } = {}): Promise<RedisServerHandle> {
  if (options.port !== undefined) return launch(options.port);
  // A port can be taken between probing and binding: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await launch(port);
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

async function launch(port: number): Promise<RedisServerHandle> {
  const child = spawn(
    BINARY,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // Never leave an orphan server behind when the test process exits without afterAll.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await Promise.race([
      waitForPong(port),
      exited.then((code) => {
        throw new Error(`redis-server exited with ${code} before it was ready: ${output.trim()}`);
      }),
    ]);
  } catch (err) {
    process.removeListener('exit', killOnExit);
    await stopChild(child, exited);
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      stopping ??= stopChild(child, exited).finally(() => process.removeListener('exit', killOnExit));
      return stopping;
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const hard = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(hard);
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Polls with a raw PING until the server answers, so this helper needs no client library. */
async function waitForPong(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await ping(port)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server on port ${port} did not answer within ${READY_TIMEOUT_MS} ms`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
