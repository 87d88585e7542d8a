/**
 * Documents are stored as JSON text. JSON has no dates, so a Date is written as `{"$$date": ms}`
 * (NeDB's own spelling, which the NeDB import reads as is) and turned back into a Date on read:
 * a document round-trips exactly, as it did on NeDB. Services store ISO strings; only a Date
 * given by a caller takes this path.
 */
const DATE_KEY = '$$date';

/** Whether a Date sits anywhere in `value`: only then does encoding need the (several times slower) replacer. */
function holdsDate(value: object): boolean {
  // A filter's scalar (an id in an $in list) comes here too, and for-in walks a string's characters.
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof Date) return true;
  for (const key in value) {
    const inner = (value as Record<string, unknown>)[key];
    if (typeof inner === 'object' && inner !== null && holdsDate(inner)) return true;
  }
  return false;
}

export function encodeDoc(doc: object): string {
  if (!holdsDate(doc)) return JSON.stringify(doc);
  return JSON.stringify(doc, function (this: Record<string, unknown>, key: string, value: unknown) {
    // `value` is already Date.toJSON()'s string; the holder still has the Date.
    const raw = this[key];
    return raw instanceof Date ? { [DATE_KEY]: raw.getTime() } : value;
  });
}

function reviveDate(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const ms = (value as Record<string, unknown>)[DATE_KEY];
  return typeof ms === 'number' && Object.keys(value).length === 1 ? new Date(ms) : value;
}

export function decodeDoc<T>(text: string): T {
  // A reviver slows JSON.parse down several times: only documents holding a date pay for it.
  return (text.includes(`"${DATE_KEY}"`) ? JSON.parse(text, reviveDate) : JSON.parse(text)) as T;
}
