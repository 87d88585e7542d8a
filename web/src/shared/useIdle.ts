import { useEffect, useState } from 'react';

/**
 * False until the browser first has nothing more urgent to do after this component mounted (idle
 * callback, at most `timeoutMs` later; a short timer where there is none), then true. For work the
 * first screen does not need: it waits until that screen is drawn.
 */
export function useIdle(timeoutMs = 2000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: timeoutMs });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(() => setIdle(true), Math.min(timeoutMs, 300));
    return () => clearTimeout(timer);
  }, [timeoutMs]);
  return idle;
}
