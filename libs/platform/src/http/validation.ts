import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError } from '@app/contracts';
import { CodedException } from './coded.exception';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, messages: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Turns class-validator failures into a 400 whose `errors` lists each field. */
export function validationErrorsToException(errors: ValidationError[]): CodedException {
  const fieldErrors = flatten(errors);
  const first = fieldErrors[0]?.messages[0];
  return new CodedException('VALIDATION_FAILED', first ?? 'Validation failed', fieldErrors);
}

/** Whitelisted, unknown fields refused, values converted by the DTO's declared types. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: validationErrorsToException,
  });
}
