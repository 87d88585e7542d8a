import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesce } from './coalesce';

describe('coalesce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('folds a burst into one run at the end of the window', () => {
    const fn = vi.fn();
    const c = coalesce(fn, 1000);
    for (let i = 0; i < 50; i++) c();
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('a steady stream runs once per window', () => {
    const fn = vi.fn();
    const c = coalesce(fn, 1000);
    for (let t = 0; t < 5000; t += 50) {
      c();
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(1000);
    expect(fn.mock.calls.length).toBeLessThanOrEqual(6);
  });

  it('cancel drops the pending run', () => {
    const fn = vi.fn();
    const c = coalesce(fn, 1000);
    c();
    c.cancel();
    vi.advanceTimersByTime(2000);
    expect(fn).not.toHaveBeenCalled();
  });
});
