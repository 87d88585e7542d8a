import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, tap } from 'rxjs';
import { observedUpstream } from '../link/linked-exchange';
import { httpDuration } from './metrics';

/** Records each request's duration under its route pattern (never the raw path: bounded labels). */
@Injectable()
export class MetricsInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    // The gateway in this process measures a request that came through the in-process link.
    if (observedUpstream(req.raw)) return next.handle();
    const started = process.hrtime.bigint();
    const record = () => {
      const res = context.switchToHttp().getResponse<FastifyReply>();
      const route = req.routeOptions.url ?? 'unmatched';
      httpDuration.observe(
        { service: this.service, method: req.method, route, status: String(res.statusCode) },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    return next.handle().pipe(tap({ next: record, error: record }));
  }
}
