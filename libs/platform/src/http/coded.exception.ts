import { HttpException } from '@nestjs/common';
import { ErrorCode, errorStatus, FieldError } from '@app/contracts';

/**
 * An error with its code (`ApiFailure.code`): the status follows from the code (`errorStatus`),
 * the message is the one the reply shows. Each service narrows `C` to its own codes.
 */
export class CodedException<C extends ErrorCode = ErrorCode> extends HttpException {
  constructor(
    readonly code: C,
    message: string,
    errors?: FieldError[],
  ) {
    super(errors ? { message, errors } : message, errorStatus(code));
  }
}
