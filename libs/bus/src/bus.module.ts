import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { BusTransport } from './bus.port';
import { BUS_TRANSPORT } from './bus.tokens';
import { EventBus } from './event-bus';
import { BusSettings, createTransport } from './transport.factory';

export interface BusModuleOptions {
  settings?: BusSettings;
  /** A ready-made transport (tests). */
  transport?: BusTransport;
}

@Injectable()
class TransportLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(BUS_TRANSPORT) private readonly transport: BusTransport) {}

  async onModuleInit(): Promise<void> {
    await this.transport.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    // The in-process bus is shared by every service of the process: its owner closes it.
    if (this.transport.engine !== 'memory') await this.transport.close();
  }
}

/** Provides `EventBus` (emit) and the transport the service's BusServer consumes from. */
@Global()
@Module({})
export class BusModule {
  static forRoot(options: BusModuleOptions): DynamicModule {
    const transport = options.transport ?? createTransport(options.settings ?? { engine: 'memory' });
    return {
      module: BusModule,
      providers: [{ provide: BUS_TRANSPORT, useValue: transport }, TransportLifecycle, EventBus],
      exports: [BUS_TRANSPORT, EventBus],
    };
  }
}
