import { useDeferredValue, useMemo } from 'react';

const NONE: never[] = [];

/**
 * A long list drawn in two steps: the first `first` items (what a phone shows above the fold) with the
 * render that brought them, the rest in a transition, which React splits into short tasks and puts off
 * while anything more urgent waits. So a page of cards arriving at once does not block the main thread
 * for the whole list. Returns the items to draw now; the rest follow within a few frames.
 */
export function useStaged<T>(items: readonly T[], first = 2): readonly T[] {
  const head = useMemo(() => items.slice(0, first), [items, first]);
  const tail = useMemo(() => items.slice(first), [items, first]);
  const shownTail = useDeferredValue(tail, NONE);
  return useMemo(() => (shownTail.length === 0 ? head : head.concat(shownTail)), [head, shownTail]);
}
