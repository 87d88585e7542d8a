import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is switched off whenever none of its runs is active. On Node 20 an
 * enabled AsyncLocalStorage keeps promise hooks installed that every promise of the process pays
 * for: once any transaction had run, ~8 % of a feed page's CPU went to them (docs/PERFORMANCE.md,
 * round 8). Switched off between runs, requests that open no transaction pay nothing; `run`
 * switches it on again. Outside every run `get()` is undefined, as it was for code that no run
 * started.
 */
export class ScopedContext<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private active = 0;

  get(): T | undefined {
    return this.storage.getStore();
  }

  async run<R>(value: T, fn: () => Promise<R>): Promise<R> {
    this.active++;
    try {
      return await this.storage.run(value, fn);
    } finally {
      if (--this.active === 0) this.storage.disable();
    }
  }
}
