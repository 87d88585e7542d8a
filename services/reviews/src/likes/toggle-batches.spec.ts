import { ToggleBatches } from './toggle-batches';

/** A run that waits until the test lets its batch go. */
function gatedRun() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve) => gates.push(() => resolve(items.map((n) => n * 10))));
  };
  const open = async () => {
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, run, open };
}

describe('ToggleBatches', () => {
  it('runs an item at once when a slot is free; what comes while the slots are busy goes together in the next batch', async () => {
    const { batches, run, open } = gatedRun();
    const toggles = new ToggleBatches(run, { inFlight: 2, size: 3 });
    const answers = [1, 2, 3, 4, 5, 6].map((n) => toggles.submit(n));
    expect(batches).toEqual([[1], [2]]);
    await open();
    expect(batches).toEqual([[1], [2], [3, 4, 5]]);
    await open();
    expect(batches).toEqual([[1], [2], [3, 4, 5], [6]]);
    await open();
    await open();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it("gives a failed batch's error to each of its items, and an item's own promise to that item alone", async () => {
    const toggles = new ToggleBatches<number, number>(
      async (items) => {
        if (items.includes(0)) throw new Error('batch refused');
        return items.map((n) => (n < 0 ? Promise.reject(new Error(`item ${n} refused`)) : n));
      },
      { inFlight: 1, size: 8 },
    );
    await expect(toggles.submit(0)).rejects.toThrow('batch refused');
    const [minus, plus] = [toggles.submit(-1), toggles.submit(1)];
    await expect(minus).rejects.toThrow('item -1 refused');
    await expect(plus).resolves.toBe(1);
  });
});
