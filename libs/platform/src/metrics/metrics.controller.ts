import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator';
import { metricsRegistry } from './metrics';

/** Prometheus text format, outside the JSON envelope. */
@Public()
@Controller('metrics')
export class MetricsController {
  @Get()
  async metrics(@Res() res: FastifyReply): Promise<void> {
    void res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  }
}
