import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { BusModule, BusTransport } from '@app/bus';
import { BaseDoc, CollectionDef, Store, StoreModule } from '@app/store';
import { inboxCollection, outboxCollection } from '@app/bus';
import { JwtAuthGuard } from './auth/jwt-auth.guard';
import { AccessTokenVerifier } from './auth/access-token';
import { PlatformConfig, storeSettings } from './config/platform.config';
import { HealthController } from './health/health.controller';
import { createLogger, loggerParams } from './logging/logger';
import { memberStandingCollection } from './read-models/member-standing.collection';
import { MemberStandingEvents } from './read-models/member-standing.events';
import { MemberStanding } from './read-models/member-standing.service';
import { ACCESS_TOKENS, PLATFORM_CONFIG, SERVICE_LOGGER } from './platform.tokens';

export interface PlatformModuleOptions {
  service: string;
  config: PlatformConfig;
  /** Every collection the service declares (its indexes are built at boot). */
  collections: readonly CollectionDef<BaseDoc>[];
  /** Ready-made engines (tests, the embedded launcher); otherwise chosen from config. */
  store?: Store;
  transport?: BusTransport;
}

/**
 * Everything a service needs besides its own features: config, JSON logs, store, bus
 * (with outbox and inbox), JWT guard on every route, health (metrics are served on their own port: startMetricsServer).
 */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const { config } = options;
    const logger = createLogger(options.service, config.LOG_LEVEL);
    return {
      module: PlatformModule,
      global: true,
      imports: [
        LoggerModule.forRoot(loggerParams(logger)),
        StoreModule.forRoot({
          service: options.service,
          collections: [...options.collections, outboxCollection, inboxCollection, memberStandingCollection] as CollectionDef<BaseDoc>[],
          store: options.store,
          settings: storeSettings(config),
        }),
        BusModule.forRoot({
          transport: options.transport,
          settings: {
            engine: config.BUS,
            redisUrl: config.REDIS_URL,
            kafkaBrokers: config.KAFKA_BROKERS?.split(',').map((b) => b.trim()),
            clientId: options.service,
          },
        }),
      ],
      controllers: [HealthController, MemberStandingEvents],
      providers: [
        { provide: PLATFORM_CONFIG, useValue: config },
        { provide: SERVICE_LOGGER, useValue: logger },
        { provide: ACCESS_TOKENS, useValue: new AccessTokenVerifier(config.JWT_SECRET) },
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        MemberStanding,
      ],
      exports: [PLATFORM_CONFIG, ACCESS_TOKENS, SERVICE_LOGGER, MemberStanding],
    };
  }
}
