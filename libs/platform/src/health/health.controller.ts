import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { BUS_TRANSPORT, BusTransport } from '@app/bus';
import { STORE, Store } from '@app/store';
import { Public } from '../auth/public.decorator';

/** Liveness (the process answers) and readiness (its store and bus answer), for probes. */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(BUS_TRANSPORT) private readonly bus: BusTransport,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready() {
    const [store, bus] = await Promise.all([
      this.store.isHealthy().catch(() => false),
      this.bus.isHealthy().catch(() => false),
    ]);
    const checks = { store: store ? 'up' : 'down', bus: bus ? 'up' : 'down' };
    if (!store || !bus) throw new ServiceUnavailableException({ message: 'Not ready', errors: [], checks });
    return { status: 'ready', checks };
  }
}
