import { DynamicModule, Module, Type } from '@nestjs/common';
import { BaseDoc, CollectionDef, Filter, Store } from '@app/store';

/** One kind of row a member owns, as their export lists it. */
export interface ExportPart {
  /** The key in the export (`reviews`, `follows`...). */
  key: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  collection: CollectionDef<any>;
  /** The member's rows only: what they wrote, sent, own or are a side of. */
  filter: (userId: string) => Filter;
  /** Fields that are internal (keys, counters' bookkeeping) or another member's private data. */
  omit?: readonly string[];
}

/** A row as the member reads it: `id` instead of `_id`, without the omitted fields. */
function exported(doc: BaseDoc, omit: readonly string[]): Record<string, unknown> {
  const { _id, ...rest } = doc as BaseDoc & Record<string, unknown>;
  return { id: _id, ...Object.fromEntries(Object.entries(rest).filter(([k]) => !omit.includes(k))) };
}

/**
 * A service's part of the member's data export (issue 20 §4): each part's rows, keyed. The
 * gateway's GET /api/users/me/export asks every service for its part and joins them.
 */
export async function exportParts(store: Store, parts: readonly ExportPart[], userId: string): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    parts.map(async (part) => {
      const docs = await store.collection<BaseDoc>(part.collection).find(part.filter(userId), { sort: { _id: 1 } });
      return [part.key, docs.map((d) => exported(d, part.omit ?? []))] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Mounts a service's export controller (GET /api/<prefix>/me/export). */
@Module({})
export class MemberExportModule {
  static withController(controller: Type): DynamicModule {
    return { module: MemberExportModule, controllers: [controller] };
  }
}
