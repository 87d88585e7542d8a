import { useDeferredValue } from 'react';

/**
 * A long list drawn in two steps: the first `first` items (what a phone shows above the fold) with the
 * render that brought them, the rest in a transition, which React splits into short tasks and puts off
 * while anything more urgent waits. So a page of cards arriving at once does not block the main thread
 * for the whole list. What is deferred is how many items show, never which: every render shows the
 * start of the current list (a reordered list never shows an item twice).
 */
export function useStaged<T>(items: readonly T[], first = 2): readonly T[] {
  const head = Math.min(first, items.length);
  const count = useDeferredValue(items.length, head);
  return items.slice(0, Math.max(count, head));
}
