import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createStore, StoreSettings } from './store.factory';
import { BaseDoc, CollectionDef, Store } from './store.port';

/** Injection token of the service's Store. */
export const STORE = Symbol('STORE');
const STORE_COLLECTIONS = Symbol('STORE_COLLECTIONS');

export interface StoreModuleOptions {
  service: string;
  collections: readonly CollectionDef<BaseDoc>[];
  /** Engine settings from the environment; ignored when `store` is given. */
  settings?: StoreSettings;
  /** A ready-made store (tests). */
  store?: Store;
}

@Injectable()
class StoreLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(STORE_COLLECTIONS) private readonly collections: readonly CollectionDef<BaseDoc>[],
  ) {}

  async onModuleInit(): Promise<void> {
    await this.store.open(this.collections);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

@Global()
@Module({})
export class StoreModule {
  static forRoot(options: StoreModuleOptions): DynamicModule {
    const store =
      options.store ?? createStore(options.service, options.settings ?? { engine: 'sqlite', dataDir: ':memory:' });
    return {
      module: StoreModule,
      providers: [
        { provide: STORE, useValue: store },
        { provide: STORE_COLLECTIONS, useValue: options.collections },
        StoreLifecycle,
      ],
      exports: [STORE],
    };
  }
}
