import { DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { CollectionDef, STORE, Store } from '@app/store';
import { PlatformConfig } from '../config/platform.config';
import { PLATFORM_CONFIG, SERVICE_LOGGER } from '../platform.tokens';
import { createMailer, Mailer, MAILER } from './mailer';
import { MailOutboxDoc, MailOutboxOptions, MailOutboxWorker } from './mail-outbox';

/** A Mailer chosen from the config (SMTP_URL, else .eml files) and a worker sending `outbox`. */
@Module({})
export class MailModule {
  static forOutbox(outbox: CollectionDef<MailOutboxDoc>, options: MailOutboxOptions = {}): DynamicModule {
    return {
      module: MailModule,
      providers: [
        { provide: MAILER, inject: [PLATFORM_CONFIG, SERVICE_LOGGER], useFactory: (c: PlatformConfig, l: Logger) => createMailer(c, l) },
        {
          provide: MailOutboxWorker,
          inject: [STORE, MAILER, SERVICE_LOGGER],
          useFactory: (store: Store, mailer: Mailer, logger: Logger) => new MailOutboxWorker(store.collection(outbox), mailer, logger, options),
        },
      ],
      exports: [MAILER, MailOutboxWorker],
    };
  }
}
