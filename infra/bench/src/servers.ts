// The two servers under test, each in its own child process (bench.ts forks this file:
// `servers.js --serve-stack <dataDir>` or `--serve-raw`), so the load generator in the parent
// does not share their event loop, each has its own RSS, and the stack's boot loads nothing of the bench.
import { createServer } from 'node:http';
import type { ImportReport } from '@app/platform';

/** A reply the raw server repeats byte for byte. */
export interface CannedReply {
  status: number;
  contentType: string;
  body: string;
}

/** `bootMs`: the stack child's own startEmbeddedStack time (stores opened, counter repair, listen), module loading excluded. */
export type ChildMessage = { ready: string; bootMs?: number };
/**
 * The stack child's answer to 'memory' (as it is) and 'memory-gc' (after a full GC, when the
 * child runs with --expose-gc: `heapUsed` is then the live heap): `process.memoryUsage()` in MB.
 */
export type MemoryReply = { memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number; afterGc: boolean } };
export type RawServerCommand = { replies: Record<string, CannedReply> };
/** Rows for one of the stack's bulk imports (docs/decisions/import.md), answered with its report. */
export type ImportCommand = { import: 'members' | 'follows' | 'products' | 'reviews'; rows: unknown[] };
export type ImportReply = { imported: ImportReport<unknown> };

/** The embedded stack on `dataDir` (one process: gateway, services, in-process bus, one SQLite file per service). */
async function serveStack(dataDir: string): Promise<void> {
  // Loaded here, not at the top: the distributed profile's control child (this file too) starts
  // the launcher and is timed to its ready, and must not load the embedded stack's code first.
  const { tuneHeap } = await import('@app/platform');
  const { startEmbeddedStack } = await import('../../launcher/src/embedded-stack');
  tuneHeap(); // as `npm start` does
  const started = performance.now();
  const stack = await startEmbeddedStack({ port: 0, dataDir, seed: false });
  process.send?.({ ready: stack.url, bootMs: Math.round(performance.now() - started) } satisfies ChildMessage);
  process.on('message', (msg: unknown) => {
    if (msg === 'settle') void stack.settle().then(() => process.send?.('settled'));
    if (msg === 'send-mail') void stack.sendQueuedMail().then(() => process.send?.('settled'));
    // SQLite keeps no statistics the import leaves stale: nothing to do after one.
    if (msg === 'after-import') process.send?.('settled');
    const command = msg as Partial<ImportCommand>;
    if (command?.import && command.rows) {
      void stack.importer[command.import](command.rows).then(
        (imported) => process.send?.({ imported } satisfies ImportReply),
        (err: Error) => {
          process.stderr.write(`import failed: ${err.stack}\n`);
          process.exit(1);
        },
      );
    }
    if (msg === 'memory' || msg === 'memory-gc') {
      const gc = msg === 'memory-gc' ? (globalThis as { gc?: () => void }).gc : undefined;
      gc?.();
      const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
      const m = process.memoryUsage();
      const memory = { rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), afterGc: gc !== undefined };
      process.send?.({ memory } satisfies MemoryReply);
    }
  });
  process.on('SIGTERM', () => void stack.close().finally(() => process.exit(0)));
}

/** A bare `http` server answering each path (query included) with the stack's own bytes. */
function serveRaw(): void {
  let replies: Record<string, CannedReply> = {};
  const server = createServer((req, res) => {
    const reply = replies[`${req.method} ${req.url}`] ?? replies[`${req.method} ${(req.url ?? '').split('?', 1)[0]}`];
    req.resume();
    if (!reply) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
    res.end(reply.body);
  });
  process.on('message', (msg: unknown) => {
    replies = { ...replies, ...(msg as RawServerCommand).replies };
    process.send?.('settled');
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.send?.({ ready: `http://127.0.0.1:${port}` } satisfies ChildMessage);
  });
}

export function runChild(mode: string, arg: string | undefined): void {
  if (mode === '--serve-stack') {
    serveStack(arg ?? '.data-bench').catch((err: Error) => {
      process.stderr.write(`stack failed: ${err.stack}\n`);
      process.exit(1);
    });
  } else if (mode === '--serve-distributed') {
    // Loaded only here: the embedded stack's child has no use for the engines' clients.
    void import('./bench-profiles')
      .then(({ serveDistributed }) => serveDistributed(arg ?? '.data-bench'))
      .catch((err: Error) => {
        process.stderr.write(`stack failed: ${err.stack}\n`);
        process.exit(1);
      });
  } else {
    serveRaw();
  }
}

if (require.main === module) runChild(process.argv[2] ?? '', process.argv[3]);
