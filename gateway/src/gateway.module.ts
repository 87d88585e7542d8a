import { DynamicModule, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { hmacKey, PLATFORM_CONFIG } from '@app/platform';
import { SessionCutoffs } from './access/session-cutoffs';
import { GatewayConfig } from './config/gateway.config';
import { GATEWAY_CONFIG, GATEWAY_SERVICE_URLS } from './gateway.tokens';
import { GatewayHealthController } from './health/gateway-health.controller';
import { HttpLink } from './link/http-link';
import { SERVICE_LINK, ServiceLink } from './link/service-link';
import { ServiceForwarder, ServiceUrls } from './proxy/service-proxy';
import { RateLimitStore } from './rate-limit/rate-limit-store';
import { RealtimeModule } from './realtime/realtime.module';

@Module({})
export class GatewayModule {
  /** `link`: how the gateway reaches the services; by default HTTP to `urls` (the embedded stack gives its in-process link). */
  static forRoot(config: GatewayConfig, urls: ServiceUrls, link?: ServiceLink): DynamicModule {
    return {
      module: GatewayModule,
      global: true,
      imports: [
        JwtModule.register({ secret: hmacKey(config.JWT_SECRET), verifyOptions: { algorithms: ['HS256'] } }),
        RealtimeModule,
      ],
      controllers: [GatewayHealthController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: PLATFORM_CONFIG, useValue: config },
        { provide: GATEWAY_SERVICE_URLS, useValue: urls },
        RateLimitStore,
        SessionCutoffs,
        { provide: SERVICE_LINK, useFactory: () => link ?? new HttpLink(urls, config.UPSTREAM_TIMEOUT_MS) },
        // Closes the link with the app (in-flight requests end, connections close).
        { provide: ServiceForwarder, useFactory: (shared: ServiceLink) => new ServiceForwarder(shared), inject: [SERVICE_LINK] },
      ],
      exports: [GATEWAY_CONFIG, PLATFORM_CONFIG, GATEWAY_SERVICE_URLS, SERVICE_LINK, JwtModule, SessionCutoffs],
    };
  }
}
