import { DuplicateKeyError } from './store.errors';
import { BaseDoc, Collection, CountedIn, Filter, Flipped, NewDoc } from './store.port';

/**
 * `Collection.flip` as its steps, for engines (and moments) where one statement cannot do it:
 * the insert decides, a refused one deletes what `match` finds, and the count moves after.
 */
export async function flipInSteps<T extends BaseDoc>(rows: Collection<T>, doc: NewDoc<T>, match: Filter, counted: CountedIn): Promise<Flipped | null> {
  const { collection: counts, id, field } = counted;
  try {
    await rows.insert(doc);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    if ((await rows.deleteOne(match)) === 0) return null;
    const moved = await counts.findOneAndUpdate({ _id: id, [field]: { $gte: 1 } }, { $inc: { [field]: -1 } });
    return { inserted: false, count: countIn(moved ?? (await counts.findById(id)), field) };
  }
  const moved = await counts.findOneAndUpdate({ _id: id }, { $inc: { [field]: 1 } }, { upsert: true });
  return { inserted: true, count: countIn(moved, field) };
}

/** The number a counting document holds in `field` (0 when it or the field is missing). */
export function countIn(doc: BaseDoc | null, field: string): number {
  const value = (doc as Record<string, unknown> | null)?.[field];
  return typeof value === 'number' ? value : 0;
}
