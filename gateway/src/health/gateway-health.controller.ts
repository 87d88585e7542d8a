import { Controller, Get, Inject } from '@nestjs/common';
import { Public } from '@app/platform';
import { ServiceUrls } from '../proxy/service-proxy';
import { GATEWAY_SERVICE_URLS } from '../gateway.tokens';

/**
 * Live: the process answers. Ready: it can take traffic; the services' own states are
 * reported but do not make the gateway unready (their routes answer 503 on their own).
 */
@Public()
@Controller('health')
export class GatewayHealthController {
  constructor(@Inject(GATEWAY_SERVICE_URLS) private readonly urls: ServiceUrls) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready() {
    const entries = await Promise.all(
      Object.entries(this.urls).map(async ([name, url]) => {
        try {
          const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(1000) });
          return [name, res.ok ? 'up' : 'down'] as const;
        } catch {
          return [name, 'down'] as const;
        }
      }),
    );
    return { status: 'ready', services: Object.fromEntries(entries) };
  }
}
