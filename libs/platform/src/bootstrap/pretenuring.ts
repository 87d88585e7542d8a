import { setFlagsFromString } from 'node:v8';

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
export function turnOffPretenuring(env: Record<string, string | undefined> = process.env): void {
  if (env.V8_PRETENURING !== 'on') setFlagsFromString('--no-allocation-site-pretenuring');
}
