import { setFlagsFromString } from 'node:v8';
import { turnOffPretenuring } from '@app/platform';

/**
 * Lets V8's old generation grow to 1.5× the live heap before a major collection, instead of the
 * up to 4× it picks when the process allocates fast. The live heap of the whole stack is ~50 MB
 * at any size the bench seeds, so the default let a busy stack hold 200-250 MB of garbage (peak RSS
 * 380-476 MB); with this, ~250 MB for the same CPU and p99 (PERFORMANCE.md round 9, RSS).
 * HEAP_GROWING_PERCENT sets another figure; 0 leaves V8's default. The flag is read at each
 * collection, so setting it once at start is enough.
 */
function limitHeapGrowth(percent = Number(process.env.HEAP_GROWING_PERCENT ?? 50)): void {
  if (Number.isInteger(percent) && percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** The embedded stack's heap as `npm start` sets it (the bench's and the soak's stacks too): growth limited, pretenuring off. */
export function tuneEmbeddedHeap(): void {
  limitHeapGrowth();
  turnOffPretenuring();
}
