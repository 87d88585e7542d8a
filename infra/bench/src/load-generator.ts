// The load generator of one measured run, in a process of its own (bench.ts forks this file for
// each run): a client that shares the process that seeded (its heap of ids and tokens, its
// collections) reads its replies later and in smaller batches, and the server under test then
// pays more per request (measured in PERFORMANCE.md, round 11). A fresh process per run puts the
// stack and the raw server in front of the same client.
import autocannon from 'autocannon';

/** One run: `connections` clients for `duration` seconds, each request to `path` (or the next of `rotate`). */
export interface LoadCommand {
  url: string;
  connections: number;
  duration: number;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  rotate?: string[];
}

export interface LoadResult {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  count: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function run(command: LoadCommand): Promise<LoadResult> {
  const times: number[] = [];
  let i = 0;
  const tracker = autocannon({
    url: command.url,
    connections: command.connections,
    duration: command.duration,
    requests: [
      {
        method: command.method,
        path: command.path,
        headers: command.headers,
        body: command.body,
        setupRequest: (req) => (command.rotate ? { ...req, path: command.rotate[i++ % command.rotate.length] } : req),
      },
    ],
  });
  tracker.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  const result = await tracker;
  times.sort((a, b) => a - b);
  const at = (p: number) => Number(percentile(times, p).toFixed(1));
  return { rps: result.requests.average, p50: at(50), p95: at(95), p99: at(99), count: times.length, errors: result.errors + result.timeouts + result.non2xx };
}

if (require.main === module) {
  process.once('message', (command: LoadCommand) => {
    run(command).then(
      (result) => process.send?.(result, () => process.exit(0)),
      (err: Error) => {
        process.stderr.write(`load failed: ${err.stack}\n`);
        process.exit(1);
      },
    );
  });
}
