import { startTransition, useEffect, useState } from 'react';

/**
 * A long list drawn in steps: the first `first` items (what a phone shows above the fold) with the render
 * that brought them, then `step` more at a time, each step a transition started in a task of its own once
 * the one before is committed, until all show. (One transition for the whole rest was rendered in short
 * slices but committed, laid out and painted in one go: a 25-60 ms task on a phone, four times that under
 * Lighthouse's throttling.) What is deferred is how many items show, never which: every render shows the
 * start of the current list (a reordered list never shows an item twice).
 */
export function useStaged<T>(items: readonly T[], first = 2, step = first): readonly T[] {
  const [count, setCount] = useState(first);
  const total = items.length;
  useEffect(() => {
    if (count >= total) return;
    const timer = setTimeout(() => startTransition(() => setCount((c) => c + step)), 0);
    return () => clearTimeout(timer);
  }, [count, total, step]);
  return count >= total ? items : items.slice(0, count);
}
