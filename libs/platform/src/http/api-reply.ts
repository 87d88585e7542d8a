import { ListMeta, listMeta } from '@app/contracts';

/**
 * What a controller returns when the envelope needs more than `data`: a message or list
 * meta. Anything else a controller returns becomes `{ success: true, data }`.
 */
export class Reply<T> {
  constructor(
    readonly data: T,
    readonly message?: string,
    readonly meta?: ListMeta & Record<string, unknown>,
    readonly extra?: Record<string, unknown>,
  ) {}

  static list<T>(items: T[], total: number, page: number, limit: number, metaExtra: Record<string, unknown> = {}) {
    return new Reply(items, undefined, { ...listMeta(total, page, limit), ...metaExtra });
  }

  static message<T>(message: string, data: T) {
    return new Reply(data, message);
  }
}
