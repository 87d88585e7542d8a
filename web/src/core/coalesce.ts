/**
 * Runs `fn` at most once per `windowMs`: the first call opens a window, later calls inside it are folded
 * into the one run at its end. A burst of N live events thus costs one refetch per window, not N.
 */
export function coalesce(fn: () => void, windowMs: number): { (): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, windowMs);
  };
  run.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return run;
}
