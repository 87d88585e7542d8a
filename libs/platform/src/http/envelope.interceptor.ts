import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { Reply } from './api-reply';

/** Wraps every successful reply in the envelope of ARCHITECTURE §4. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof StreamableFile) return result;
        // A 304 (media revalidation) has no body, so no envelope and no content headers.
        if (result === undefined && context.switchToHttp().getResponse<{ statusCode: number }>().statusCode === 304) return undefined;
        if (result instanceof Reply) {
          return {
            success: true,
            data: result.data,
            ...(result.message !== undefined && { message: result.message }),
            ...(result.meta !== undefined && { meta: result.meta }),
            ...result.extra,
          };
        }
        return { success: true, data: result ?? null };
      }),
    );
  }
}
