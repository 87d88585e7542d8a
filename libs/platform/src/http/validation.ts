import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError } from '@app/contracts';
import { CodedException } from './coded.exception';
import { compileDto, CompiledValidator } from './dto-validator';

/** Rules that fail on a missing or empty value. */
const PRESENCE = ['isDefined', 'isNotEmpty'];

/**
 * A field's messages; when it is missing only "required" is said: its length or type rules
 * also fail on nothing, and the last declared came first ("password must be shorter than or
 * equal to 128 characters" for an absent password, issue 45 §8).
 */
function messagesOf(constraints: Record<string, string>): string[] {
  const presence = PRESENCE.filter((name) => name in constraints).map((name) => constraints[name]);
  return presence.length > 0 ? presence : Object.values(constraints);
}

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, messages: messagesOf(e.constraints) }] : [];
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
function createFullValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: validationErrorsToException,
  });
}

/** The classes Nest's ValidationPipe converts instead of validating. */
const NOT_VALIDATED = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

/**
 * The services' validation: each DTO is compiled once (`compileDto`) and a flat query or body
 * takes the compiled path; anything else (primitives, custom parameters, nested or unknown
 * fields, a class the compiler does not model) goes through Nest's ValidationPipe with the same
 * options. Both answer with the same instance or the same 400.
 */
@Injectable()
export class CompiledValidationPipe implements PipeTransform {
  private readonly full = createFullValidationPipe();
  private readonly compiled = new Map<unknown, CompiledValidator | undefined>();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const validator = this.validatorFor(metadata);
    const outcome = validator?.(value);
    if (!outcome) return this.full.transform(value, metadata);
    if (outcome.errors.length > 0) throw validationErrorsToException(outcome.errors);
    return outcome.instance;
  }

  private validatorFor({ type, metatype }: ArgumentMetadata): CompiledValidator | undefined {
    if (type === 'custom' || !metatype || NOT_VALIDATED.has(metatype)) return undefined;
    if (!this.compiled.has(metatype)) this.compiled.set(metatype, compileDto(metatype as new () => object));
    return this.compiled.get(metatype);
  }
}

export function createValidationPipe(): PipeTransform {
  return new CompiledValidationPipe();
}
