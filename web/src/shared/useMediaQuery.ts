import { useSyncExternalStore } from 'react';

// one MediaQueryList per query: React reads the snapshot on every render
const lists = new Map<string, MediaQueryList>();

function listOf(query: string): MediaQueryList | undefined {
  if (typeof window.matchMedia !== 'function') return undefined;
  let list = lists.get(query);
  if (!list) lists.set(query, (list = window.matchMedia(query)));
  return list;
}

/** Whether the media query matches now, re-rendering when that changes (false where matchMedia is missing). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = listOf(query);
      list?.addEventListener('change', changed);
      return () => list?.removeEventListener('change', changed);
    },
    () => listOf(query)?.matches ?? false,
  );
}
