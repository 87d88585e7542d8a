type Undici = typeof import('undici');

let loaded: Undici | undefined;

/**
 * undici, loaded by the first HTTP call to a service rather than at boot: the embedded profile
 * reaches its services in process and calls auth over HTTP only on a session cache miss, and
 * undici is among the slowest modules to load (docs/PERFORMANCE.md round 8).
 */
export function undici(): Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('undici') as Undici);
}
