import { AsyncResource } from 'node:async_hooks';

/** How many batches run at once, and how many items one takes at most. */
export interface BatchLimits {
  inFlight: number;
  size: number;
}

/** An item's answer: a value, or a promise of its own, settled apart from its batch's (an item that went again alone). */
export type Answer<O> = O | Promise<O>;

/**
 * Natural batching (issue 44): an item that comes while `inFlight` batches run waits, and those
 * that waited go together in the next batch, so a batch grows with the load and an item never
 * waits for a timer (alone on an idle service it goes at once). `run` answers each item, in order;
 * should it throw, every item of its batch gets the error.
 */
export class ToggleBatches<I, O> {
  private readonly waiting: { item: I; resolve: (out: Answer<O>) => void; reject: (err: unknown) => void }[] = [];
  private running = 0;
  // Batches run in the context this was made in, not in that of whichever request came first.
  private readonly scope = new AsyncResource('ToggleBatches');

  constructor(
    private readonly run: (items: I[]) => Promise<Answer<O>[]>,
    private readonly limits: BatchLimits,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.limits.inFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.limits.size);
      this.running++;
      this.scope
        .runInAsyncScope(() => this.run(batch.map((w) => w.item)))
        .then(
          (outs) => batch.forEach((w, i) => w.resolve(outs[i])),
          (err: unknown) => batch.forEach((w) => w.reject(err)),
        )
        .finally(() => {
          this.running--;
          this.next();
        });
    }
  }
}
