import { StreamableFile } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { Reply } from './api-reply';

/** The envelope of ARCHITECTURE §4 around what a route handler returned. */
export function envelope(result: unknown, statusCode: number): unknown {
  if (result instanceof StreamableFile) return result;
  // A 304 (media revalidation) has no body, so no envelope and no content headers.
  if (result === undefined && statusCode === 304) return undefined;
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
}

/**
 * Nest's Fastify adapter with the envelope applied where a route's result is sent: Nest's router
 * hands every route result to `reply`, so this replaces a global interceptor and its per-request
 * rxjs chain with one call. Errors are sent by AllExceptionsFilter and `@Res()` routes send their
 * own; other code that sends bytes of its own (the OpenAPI document) uses the response, never
 * the adapter's `reply`.
 */
export class EnvelopingFastifyAdapter extends FastifyAdapter {
  override reply(response: FastifyReply, body: unknown, statusCode?: number) {
    return super.reply(response, envelope(body, response.statusCode), statusCode);
  }
}
