import { FieldShape } from '../filter-terms';

/**
 * The fields of a collection that have ever held an array. MongoDB matches `{ tags: 'b' }`
 * against each element of an array, which an expression index on `tags` cannot; knowing which
 * fields are arrays lets every other field be matched through its index. Recorded on write in
 * the `_array_fields` table (so other processes on the same file learn them too), never
 * forgotten: a field that once held an array is matched element-wise from then on.
 */
export class FieldShapes {
  private readonly arrays = new Map<string, Set<string>>();

  shapeOf(collection: string, field: string): FieldShape {
    const known = this.arrays.get(collection);
    if (!known) return 'scalar';
    if (known.has(field)) return 'array';
    // Inside an array of sub-documents ("items.id"): mingo decides.
    const segments = field.split('.');
    for (let i = 1; i < segments.length; i++) if (known.has(segments.slice(0, i).join('.'))) return 'unknown';
    return 'scalar';
  }

  /** The array fields of `doc` not known yet (and now known). */
  learn(collection: string, doc: object): string[] {
    const known = this.arrays.get(collection) ?? new Set<string>();
    this.arrays.set(collection, known);
    const fresh = arrayFields(doc).filter((f) => !known.has(f));
    fresh.forEach((f) => known.add(f));
    return fresh;
  }

  /** Unlearns fields whose recording failed, so the next write records them again. */
  forget(collection: string, fields: readonly string[]): void {
    for (const field of fields) this.arrays.get(collection)?.delete(field);
  }

  reset(rows: { collection: string; field: string }[]): void {
    this.arrays.clear();
    for (const { collection, field } of rows) {
      const known = this.arrays.get(collection) ?? new Set<string>();
      known.add(field);
      this.arrays.set(collection, known);
    }
  }
}

function arrayFields(doc: object, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(doc)) {
    if (Array.isArray(value)) out.push(prefix + key);
    else if (typeof value === 'object' && value !== null && !(value instanceof Date)) out.push(...arrayFields(value, `${prefix}${key}.`));
  }
  return out;
}
