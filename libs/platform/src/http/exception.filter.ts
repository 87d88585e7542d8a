import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ApiFailure, FieldError, genericErrorCode } from '@app/contracts';
import { CodedException } from './coded.exception';
import { DuplicateKeyError, StoreUnavailableError } from '@app/store';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger as PinoLogger } from 'pino';

interface HttpErrorBody {
  message?: string | string[];
  errors?: FieldError[];
}

/** Errors Fastify and its plugins raise (body too large, bad content length) carry their own HTTP status. */
interface StatusError {
  status?: number;
  statusCode?: number;
  message?: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
};

/**
 * One filter for every error (ARCHITECTURE §4): the reply is always an envelope with a code
 * (the exception's own, else the generic one of its status); an unexpected error is logged
 * with the request id and answered without its stack.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  /** `log`: the service's own logger (several services share one process, and Nest's logger). */
  constructor(private readonly log?: PinoLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<FastifyReply>();
    const req = ctx.getRequest<FastifyRequest>();
    const { status, body } = this.describe(exception, req);
    if (res.raw.headersSent) return;
    void res.status(status).send(body);
  }

  private describe(exception: unknown, req: FastifyRequest): { status: number; body: ApiFailure } {
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const body = (typeof response === 'object' ? response : { message: response }) as HttpErrorBody;
      const message = Array.isArray(body.message) ? body.message[0] : body.message;
      return {
        status,
        body: {
          success: false,
          message: message ?? STATUS_TEXT[status] ?? 'Error',
          code: exception instanceof CodedException ? exception.code : genericErrorCode(status),
          ...(body.errors && { errors: body.errors }),
        },
      };
    }
    if (exception instanceof DuplicateKeyError) {
      return { status: HttpStatus.CONFLICT, body: { success: false, message: 'This already exists', code: 'CONFLICT' } };
    }
    if (exception instanceof StoreUnavailableError) {
      // The engine is out of reach (a server restarting, a connection cut): the client may retry.
      return { status: HttpStatus.SERVICE_UNAVAILABLE, body: { success: false, message: 'The service is temporarily unavailable', code: 'SERVICE_UNAVAILABLE' } };
    }
    const statusError = exception as StatusError;
    const status = statusError?.status ?? statusError?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { status, body: { success: false, message: STATUS_TEXT[status] ?? 'Bad request', code: genericErrorCode(status) } };
    }
    const requestId = req.id ?? String(req.headers['x-request-id'] ?? '');
    if (this.log) this.log.error({ context: 'Exceptions', err: exception, requestId, path: req.url }, 'Unexpected error');
    else this.logger.error({ err: exception, requestId, path: req.url }, 'Unexpected error');
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { success: false, message: 'Internal server error', code: 'INTERNAL', requestId },
    };
  }
}
