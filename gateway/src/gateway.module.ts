import { DynamicModule, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { hmacKey, MetricsController, PLATFORM_CONFIG } from '@app/platform';
import { SessionCutoffs } from './access/session-cutoffs';
import { GatewayConfig } from './config/gateway.config';
import { GATEWAY_CONFIG, GATEWAY_SERVICE_URLS } from './gateway.tokens';
import { GatewayHealthController } from './health/gateway-health.controller';
import { ServiceForwarder, ServiceUrls } from './proxy/service-proxy';
import { RateLimitStore } from './rate-limit/rate-limit-store';
import { RealtimeModule } from './realtime/realtime.module';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, urls: ServiceUrls): DynamicModule {
    return {
      module: GatewayModule,
      global: true,
      imports: [
        JwtModule.register({ secret: hmacKey(config.JWT_SECRET), verifyOptions: { algorithms: ['HS256'] } }),
        RealtimeModule,
      ],
      controllers: [GatewayHealthController, MetricsController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: PLATFORM_CONFIG, useValue: config },
        { provide: GATEWAY_SERVICE_URLS, useValue: urls },
        RateLimitStore,
        SessionCutoffs,
        {
          provide: ServiceForwarder,
          useFactory: () => new ServiceForwarder(urls, config.UPSTREAM_TIMEOUT_MS),
        },
      ],
      exports: [GATEWAY_CONFIG, PLATFORM_CONFIG, GATEWAY_SERVICE_URLS, JwtModule, SessionCutoffs],
    };
  }
}
