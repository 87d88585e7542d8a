import { AsyncLocalStorage } from 'node:async_hooks';

/** What a run sees: its context's value, then the runs it is nested in. */
interface Frame {
  readonly context: ScopedContext<unknown>;
  readonly value: unknown;
  readonly outer: Frame | undefined;
}

/**
 * One AsyncLocalStorage for every ScopedContext of the process. On Node 20 each enabled storage
 * writes a property onto every promise created while it is on: a like ran inside three contexts
 * (the look, the bus's unit, the transaction), and their hooks made a quarter of what the reviews
 * service allocated (docs/PERFORMANCE.md, issue 44). One storage writes one.
 */
const storage = new AsyncLocalStorage<Frame>();
/** Runs of any context not finished yet: the storage is switched off when none is. */
let active = 0;

/**
 * A value that holds across the awaits of a run (a transaction, a bus unit), switched off whenever
 * no run of any context is active. On Node 20 an enabled AsyncLocalStorage keeps promise hooks
 * installed that every promise of the process pays for: once any transaction had run, ~8 % of a
 * feed page's CPU went to them (docs/PERFORMANCE.md, round 8). Switched off between runs, requests
 * that open no run pay nothing; `run` switches it on again. Outside every run `get()` is
 * undefined, as it was for code that no run started.
 */
export class ScopedContext<T> {
  get(): T | undefined {
    for (let frame = storage.getStore(); frame; frame = frame.outer) if (frame.context === this) return frame.value as T;
    return undefined;
  }

  async run<R>(value: T, fn: () => Promise<R>): Promise<R> {
    active++;
    try {
      return await storage.run({ context: this as ScopedContext<unknown>, value, outer: storage.getStore() }, fn);
    } finally {
      if (--active === 0) storage.disable();
    }
  }
}
