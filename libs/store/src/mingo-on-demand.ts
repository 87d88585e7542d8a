type Mingo = typeof import('mingo');

let loaded: Mingo | undefined;

/**
 * mingo, loaded by the first filter, projection or update SQL cannot express rather than at boot:
 * it is the slowest module the stores load (~200 ms of a boot on a quiet machine, docs/PERFORMANCE.md
 * round 8), and most requests never need it.
 */
export function mingo(): Mingo {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('mingo') as Mingo);
}
