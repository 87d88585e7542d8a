import { setFlagsFromString } from 'node:v8';

type Env = Record<string, string | undefined>;

/**
 * Turns off V8's allocation-site pretenuring for this process. V8 learns, per place in the code
 * that allocates, whether its objects live long, and then allocates them straight in the old
 * generation. A service builds its read models and caches and imports in bulk through the same
 * code that later serves short requests: after seeding, the request path's objects were allocated
 * as old, the GC's share of a feed page went from ~3 % to ~8 % and every GET cost a quarter more
 * than the same process restarted (PERFORMANCE.md round 11). Without it, objects are born young
 * and the short-lived ones die in the cheap scavenges. V8_PRETENURING=on keeps V8's default.
 * Call before the process allocates in earnest: the decisions are made at each collection.
 */
export function turnOffPretenuring(env: Env = process.env): void {
  if (env.V8_PRETENURING !== 'on') setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * Lets V8's old generation grow to 1.5× the live heap before a major collection, instead of the
 * up to 4× it picks when the process allocates fast. The live heap of the whole embedded stack is
 * ~50 MB at any size the bench seeds, so the default let a busy stack hold 200-250 MB of garbage
 * (peak RSS 380-476 MB); with this, ~250 MB for the same CPU and p99 (PERFORMANCE.md round 9,
 * RSS). The distributed profile runs eight processes, each holding V8's headroom of its own.
 * HEAP_GROWING_PERCENT sets another figure; 0 leaves V8's default. The flag is read at each
 * collection, so setting it once at start is enough.
 */
export function limitHeapGrowth(env: Env = process.env): void {
  const percent = Number(env.HEAP_GROWING_PERCENT ?? 50);
  if (Number.isInteger(percent) && percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff). The gateway's HTTP client (undici) parses
 * replies with llhttp compiled to WebAssembly, and V8 compiled its hot functions a second time
 * with TurboFan: ~30 MB held at once for that, the gateway's peak resident set 129 MB against
 * 94 MB after it (issue 44). No other code of the product is WebAssembly. WASM_TIER_UP=on keeps
 * V8's default.
 */
export function keepWasmOnLiftoff(env: Env = process.env): void {
  if (env.WASM_TIER_UP !== 'on') setFlagsFromString('--liftoff-only');
}

/** Every process's heap, the embedded stack's, each service's and the gateway's: growth limited, pretenuring off, WebAssembly compiled once. */
export function tuneHeap(env: Env = process.env): void {
  limitHeapGrowth(env);
  turnOffPretenuring(env);
  keepWasmOnLiftoff(env);
}
