import { DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { BaseDoc, CollectionDef, FoldedKey, STORE, Store } from '@app/store';
import { SERVICE_LOGGER } from '../platform.tokens';

/** A collection and the folded key its name search matches against. */
export interface FoldedTarget {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  collection: CollectionDef<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  key: FoldedKey<any>;
}

const FOLDED_TARGETS = Symbol('FOLDED_TARGETS');

/**
 * Boot-time fill of the folded search keys for rows stored before them (like the reviews' tags
 * backfill): before the service serves, a failure logged without stopping it, and the next boot
 * carries on where this one stopped.
 */
@Injectable()
export class FoldedKeysBackfill implements OnApplicationBootstrap {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(FOLDED_TARGETS) private readonly targets: readonly FoldedTarget[],
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const { collection, key } of this.targets) {
      const started = Date.now();
      const where = `${collection.name}.${key.field}`;
      try {
        const filled = await key.fill(this.store.collection<BaseDoc>(collection));
        if (filled > 0) this.logger.info({ foldedKeysBackfill: { where, filled, ms: Date.now() - started } }, `Search key folded for ${filled} older row(s) of ${collection.name}`);
      } catch (err) {
        this.logger.error({ err, foldedKeysBackfill: { where, ms: Date.now() - started } }, `Folded key backfill of ${where} failed: ${(err as Error).message}`);
      }
    }
  }
}

/** Mounts the backfill of a service's folded search keys. */
@Module({})
export class FoldedKeysModule {
  static backfill(...targets: FoldedTarget[]): DynamicModule {
    return { module: FoldedKeysModule, providers: [{ provide: FOLDED_TARGETS, useValue: targets }, FoldedKeysBackfill] };
  }
}
