import { ArgumentsHost, ForbiddenException, NotFoundException, PayloadTooLargeException, ServiceUnavailableException } from '@nestjs/common';
import { ApiFailure, ErrorCode, errorStatus, genericErrorCode } from '@app/contracts';
import { DuplicateKeyError, StoreUnavailableError } from '@app/store';
import { CodedException } from './coded.exception';
import { AllExceptionsFilter } from './exception.filter';
import { validationErrorsToException } from './validation';

/** What the filter sends for `exception`, through a stand-in Fastify reply. */
function reply(exception: unknown): { status: number; body: ApiFailure } {
  const sent = { status: 0, body: undefined as unknown as ApiFailure };
  const res = {
    raw: { headersSent: false },
    status(code: number) {
      sent.status = code;
      return res;
    },
    send(body: ApiFailure) {
      sent.body = body;
    },
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ id: 'req-1', headers: {}, url: '/api/x' }) }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter({ error: () => undefined } as never).catch(exception, host);
  return sent;
}

describe('AllExceptionsFilter codes', () => {
  it("puts a coded exception's code, status and exact message in the envelope", () => {
    expect(reply(new CodedException('REVIEW_NOT_FOUND', 'Review not found'))).toEqual({
      status: 404,
      body: { success: false, message: 'Review not found', code: 'REVIEW_NOT_FOUND' },
    });
    expect(reply(new CodedException('WEAK_PASSWORD', 'Too weak', [{ field: 'password', messages: ['Too weak'] }]))).toEqual({
      status: 400,
      body: { success: false, message: 'Too weak', code: 'WEAK_PASSWORD', errors: [{ field: 'password', messages: ['Too weak'] }] },
    });
  });

  it('gives validation failures VALIDATION_FAILED with their field errors', () => {
    const { status, body } = reply(validationErrorsToException([{ property: 'rating', constraints: { max: 'rating must not be greater than 5' } }]));
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      message: 'rating must not be greater than 5',
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'rating', messages: ['rating must not be greater than 5'] }],
    });
  });

  it('gives uncoded errors the generic code of their status', () => {
    expect(reply(new NotFoundException('Cannot GET /api/nope')).body).toMatchObject({ code: 'NOT_FOUND', message: 'Cannot GET /api/nope' });
    expect(reply(new ForbiddenException()).body.code).toBe('FORBIDDEN');
    expect(reply(new PayloadTooLargeException('Payload too large')).body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(reply(new ServiceUnavailableException({ message: 'Not ready', errors: [] })).body.code).toBe('SERVICE_UNAVAILABLE');
    expect(reply(Object.assign(new Error('bad type'), { statusCode: 415 }))).toEqual({
      status: 415,
      body: { success: false, message: 'Unsupported media type', code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect(reply(new DuplicateKeyError('reviews', 'dup'))).toEqual({ status: 409, body: { success: false, message: 'This already exists', code: 'CONFLICT' } });
    expect(reply(new StoreUnavailableError('Cannot reach PostgreSQL at postgres://db:5432/app'))).toEqual({
      status: 503,
      body: { success: false, message: 'The service is temporarily unavailable', code: 'SERVICE_UNAVAILABLE' },
    });
  });

  it('answers an unexpected error with INTERNAL and the request id, never the stack', () => {
    expect(reply(new Error('db exploded'))).toEqual({
      status: 500,
      body: { success: false, message: 'Internal server error', code: 'INTERNAL', requestId: 'req-1' },
    });
  });

  it('maps each generic code back to the status it stands for', () => {
    for (const status of [400, 401, 403, 404, 409, 413, 415, 429, 502, 503, 504]) {
      expect(errorStatus(genericErrorCode(status))).toBe(status);
    }
    expect(genericErrorCode(405) satisfies ErrorCode).toBe('BAD_REQUEST');
  });
});
