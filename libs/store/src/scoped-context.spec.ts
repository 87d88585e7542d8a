import { ScopedContext } from './scoped-context';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a run of `held` ('held') sees after a short run of `other` began and ended while it waited. */
async function heldAcross(held: ScopedContext<string>, other: ScopedContext<string>): Promise<string | undefined> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen = held.run('held', async () => {
    await gate;
    return held.get();
  });
  await other.run('short', async () => undefined);
  release();
  return seen;
}

describe('ScopedContext', () => {
  it('gives each run its own value across awaits, and none outside every run', async () => {
    const context = new ScopedContext<string>();
    const seen: (string | undefined)[] = [];
    const one = context.run('one', async () => {
      await tick();
      seen.push(context.get());
      await tick();
      seen.push(context.get());
    });
    const two = context.run('two', async () => {
      await tick();
      seen.push(context.get());
    });
    expect(context.get()).toBeUndefined();
    await Promise.all([one, two]);
    expect(seen.sort()).toEqual(['one', 'one', 'two']);
    expect(context.get()).toBeUndefined();
  });

  it('is switched off once no run is active: work a run left behind no longer sees its value', async () => {
    const context = new ScopedContext<string>();
    let later!: () => string | undefined;
    await context.run('tx', async () => {
      later = () => context.get();
      expect(later()).toBe('tx');
    });
    expect(later()).toBeUndefined();
    // And on again for the next run.
    await expect(context.run('next', async () => context.get())).resolves.toBe('next');
  });

  it('stays on while another run is still active', async () => {
    const context = new ScopedContext<string>();
    await expect(heldAcross(context, context)).resolves.toBe('held');
  });
});

describe('ScopedContext, several of them', () => {
  it('gives a run nested in another context both values, each from its own context', async () => {
    const outer = new ScopedContext<string>();
    const inner = new ScopedContext<string>();
    const seen = await outer.run('unit', () =>
      inner.run('tx', async () => {
        await tick();
        return [outer.get(), inner.get()];
      }),
    );
    expect(seen).toEqual(['unit', 'tx']);
    expect([outer.get(), inner.get()]).toEqual([undefined, undefined]);
  });

  it('shadows an outer run of the same context with the inner one, and gives the outer back after it', async () => {
    const context = new ScopedContext<string>();
    const seen = await context.run('outer', async () => {
      const inside = await context.run('inner', async () => {
        await tick();
        return context.get();
      });
      return [inside, context.get()];
    });
    expect(seen).toEqual(['inner', 'outer']);
  });

  it('stays on while a run of another context is active', async () => {
    await expect(heldAcross(new ScopedContext<string>(), new ScopedContext<string>())).resolves.toBe('held');
  });
});
