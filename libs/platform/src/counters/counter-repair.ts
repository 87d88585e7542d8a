import { OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { BaseDoc, Collection, defineCollection, Filter, Store } from '@app/store';
import { PlatformConfig } from '../config/platform.config';

/** When the repair last ran to the end (one document, `last`): a folder never repaired (new, or imported from NeDB) is repaired once. */
export const counterRepairsCollection = defineCollection<{ _id: string; at: string }>('counter_repairs');

/** Documents fixed, per counter (or group of counters kept together, such as a rating sum and count). */
export type CountersFixed = Record<string, number>;

/** Updates in flight at once while fixing: few enough to leave room for requests between them. */
const FIX_CONCURRENCY = 16;

/** Adds up rows per key: 1 per row, or `weight(row)` (a rating sum). Rows without a key are skipped. */
export function tally<R>(
  rows: readonly R[],
  keyOf: (row: R) => string | null | undefined,
  weight: (row: R) => number = () => 1,
): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null || key === undefined) continue;
    totals.set(key, (totals.get(key) ?? 0) + weight(row));
  }
  return totals;
}

/**
 * Sets `fields` of each document to `expected(doc, field)` where the stored value differs (an
 * absent counter reads as 0), one update per wrong document. Each update is guarded by the values
 * it read, so a counter some other writer moved meanwhile is left alone. Returns how many
 * documents were fixed.
 */
export async function fixCounters<D extends BaseDoc, F extends keyof D & string>(
  collection: Collection<D>,
  docs: readonly D[],
  fields: readonly F[],
  expected: (doc: D, field: F) => number,
): Promise<number> {
  const fixes: { guard: Filter; set: Record<string, number> }[] = [];
  for (const doc of docs) {
    const guard: Filter = { _id: doc._id };
    const set: Record<string, number> = {};
    for (const field of fields) {
      const have = (doc as Record<string, unknown>)[field];
      const want = expected(doc, field);
      if (typeof have === 'number' ? have === want : have === undefined && want === 0) continue;
      guard[field] = have === undefined ? { $exists: false } : have;
      set[field] = want;
    }
    if (Object.keys(set).length > 0) fixes.push({ guard, set });
  }
  let fixed = 0;
  for (let i = 0; i < fixes.length; i += FIX_CONCURRENCY) {
    const results = await Promise.all(
      fixes.slice(i, i + FIX_CONCURRENCY).map(({ guard, set }) => collection.updateOne(guard, { $set: set })),
    );
    fixed += results.filter((r) => r.matched > 0).length;
  }
  return fixed;
}

/**
 * Runs a service's counter repair and logs one line: `warn` with the numbers when something was
 * fixed, `info` otherwise. COUNTER_REPAIR=off skips it. A failing repair is logged as an error
 * and does not stop the service: it is a backstop, not a precondition for serving.
 */
export async function runCounterRepair(
  config: Pick<PlatformConfig, 'COUNTER_REPAIR'>,
  logger: Logger,
  repair: () => Promise<CountersFixed>,
): Promise<CountersFixed | null> {
  if (config.COUNTER_REPAIR === 'off') {
    logger.info('Counter repair skipped (COUNTER_REPAIR=off)');
    return null;
  }
  const started = Date.now();
  try {
    const fixed = await repair();
    const total = Object.values(fixed).reduce((sum, n) => sum + n, 0);
    const line = { counterRepair: { total, fixed, ms: Date.now() - started } };
    if (total > 0) logger.warn(line, `Counter repair fixed ${total} document(s) whose counters disagreed with their rows`);
    else logger.info(line, 'Counter repair: every counter agrees with its rows');
    return fixed;
  } catch (err) {
    logger.error({ err, counterRepair: { ms: Date.now() - started } }, `Counter repair failed: ${(err as Error).message}`);
    return null;
  }
}

/**
 * A service's boot-time counter repair (issue 11 §2): recomputes each stored counter from the
 * rows it counts and fixes the documents that differ, before the service consumes events or
 * serves requests (Nest runs this hook inside `app.init()`, before the bus consumer starts and
 * before `listen`). A counter is the second of two writes; a crash between them leaves it wrong.
 *
 * Only a crash can: a clean stop closes the HTTP server and the bus consumer (letting what was
 * in flight finish) before it closes the store. So where the store can tell that everyone who used
 * it before closed it cleanly (SQLite: no write-ahead log left), and the repair has run on this
 * data once (a folder imported from NeDB has not), there is nothing to repair and the pass is
 * skipped; at full size it was over a second of every boot.
 */
export abstract class CounterRepairPass implements OnApplicationBootstrap {
  protected constructor(
    private readonly repairConfig: Pick<PlatformConfig, 'COUNTER_REPAIR'>,
    private readonly repairLogger: Logger,
    private readonly repairStore?: Store,
  ) {}

  /** Recomputes and fixes; how many documents were fixed per counter. */
  abstract repair(): Promise<CountersFixed>;

  async onApplicationBootstrap(): Promise<void> {
    const marks = this.repairStore?.collection(counterRepairsCollection);
    if (this.repairConfig.COUNTER_REPAIR !== 'off' && this.repairStore?.closedCleanlyBefore?.() && (await marks?.findById('last'))) {
      this.repairLogger.info('Counter repair skipped: the store was closed cleanly last time, so no write was cut off');
      return;
    }
    const fixed = await runCounterRepair(this.repairConfig, this.repairLogger, () => this.repair());
    if (fixed) await marks?.updateOne({ _id: 'last' }, { $set: { at: new Date().toISOString() } }, { upsert: true });
  }
}
