import { TransformationType, TransformFnParams } from 'class-transformer';
import type { TypeMetadata } from 'class-transformer/types/interfaces/metadata/type-metadata.interface';
import { getMetadataStorage, ValidationArguments, ValidationError, ValidationTypes } from 'class-validator';
import { compilableClass, transformerMetadata } from '@app/contracts';
import type { ConstraintMetadata } from 'class-validator/types/metadata/ConstraintMetadata';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { ValidationUtils as Tokens } from 'class-validator/types/validation/ValidationUtils';

// Deep imports without typings beside the cjs builds (as in bootstrap/openapi-schemas.ts):
// class-transformer's default options and class-validator's message tokens.
/* eslint-disable @typescript-eslint/no-require-imports -- see above */
const { defaultOptions } = require('class-transformer/cjs/constants/default-options.constant') as { defaultOptions: object };
const { ValidationUtils } = require('class-validator/cjs/validation/ValidationUtils') as { ValidationUtils: typeof Tokens };
/* eslint-enable @typescript-eslint/no-require-imports */

type Dto = new () => object;
type Plain = Record<string, unknown>;

/** One rule of a property and the constraint classes that check it (what class-validator looks up per request). */
interface Rule {
  meta: ValidationMetadata;
  constraints: ConstraintMetadata[];
}

interface PropertyPlan {
  name: string;
  /** class-transformer's @Type() of the property, if any. */
  type?: TypeMetadata;
  /** Its @Transform() functions, in class-transformer's order. */
  transforms: ((params: TransformFnParams) => unknown)[];
  /** class-transformer leaves a key alone when the class has a method or a read-only accessor of that name. */
  skipped: boolean;
  conditions: ValidationMetadata[];
  defined: Rule[];
  rules: Rule[];
  /** @ValidateNested: a value here takes the full path (the plan covers flat values only). */
  nested: boolean;
}

/**
 * What the compiled path answers: the DTO instance, class-validator's errors for it, or `undefined`
 * when the input is outside what the plan covers (the caller then runs the full pipe).
 */
export type CompiledOutcome = { instance: object; errors: ValidationError[] } | undefined;

export type CompiledValidator = (plain: unknown) => CompiledOutcome;

/** Thrown inside a run when a rule answers with a promise: the full pipe awaits it instead. */
const ASYNC = Symbol('async rule');

/**
 * Compiles a DTO class once into the work `ValidationPipe` does per request under the services'
 * options (whitelist, forbidNonWhitelisted, forbidUnknownValues, transform, no target or value in
 * errors): class-transformer's `plainToInstance` and class-validator's `validate`, with every
 * metadata lookup (the rules of each property, their constraint classes, `@Type`, `@Transform`)
 * done here instead of on each call. It covers a flat object of declared properties with
 * primitive values (every query string, most bodies) and runs the same rule instances and message
 * builder as class-validator, so its errors are the same; anything else (unknown keys, arrays or
 * objects as values, a class whose metadata it does not model) is left to the full pipe.
 * Returns `undefined` for a class it cannot compile.
 */
export function compileDto(cls: Dto): CompiledValidator | undefined {
  const plans = planProperties(cls);
  if (!plans) return undefined;
  const byName = new Map(plans.map((plan) => [plan.name, plan]));
  const nested = plans.filter((plan) => plan.nested).map((plan) => plan.name);

  return (input) => {
    const plain = (input ?? {}) as Plain;
    if (!isFlatObject(plain, byName)) return undefined;
    const instance = new cls() as Plain;
    for (const key of Object.keys(plain)) {
      const plan = byName.get(key) as PropertyPlan;
      if (plan.skipped) continue;
      let value = convert(plain[key], plan.type?.typeFunction ? plan.type.typeFunction({ newObject: instance, object: plain, property: key }) : plan.type?.reflectedType);
      if (plan.transforms.length > 0) {
        const options = { ...defaultOptions };
        for (const transform of plan.transforms) value = transform({ value, key, obj: plain, type: TransformationType.PLAIN_TO_CLASS, options });
      }
      instance[key] = value;
    }
    if (nested.some((name) => instance[name] !== undefined)) return undefined;
    try {
      return { instance, errors: validatePlans(instance, plans, cls.name) };
    } catch (err) {
      if (err === ASYNC) return undefined;
      throw err;
    }
  };
}

/** The per-property plan, or undefined when the class uses metadata the compiled path does not model. */
function planProperties(cls: Dto): PropertyPlan[] | undefined {
  // No schema name, as class-validator's `validate(instance)` asks. No rules at all: forbidUnknownValues' error, the full pipe says it.
  const compilable = compilableClass(cls);
  // A rule with a context puts it in its error: left to the full pipe.
  if (!compilable || compilable.metadatas.some((meta) => meta.context !== undefined)) return undefined;
  const { metadatas, blank } = compilable;
  const storage = getMetadataStorage();
  const grouped = storage.groupByPropertyName(metadatas);
  // An initialised property without rules fails the whitelist on every request: left to the full pipe.
  if (Object.keys(blank).some((key) => !grouped[key])) return undefined;

  const plans: PropertyPlan[] = [];
  for (const [name, metas] of Object.entries(grouped)) {
    const rule = (meta: ValidationMetadata): Rule => ({ meta, constraints: storage.getTargetValidatorConstraints(meta.constraintCls) });
    const rules = metas.filter((meta) => meta.type === ValidationTypes.CUSTOM_VALIDATION).map(rule);
    const defined = metas.filter((meta) => meta.type === ValidationTypes.IS_DEFINED).map(rule);
    if ([...rules, ...defined].some((r) => r.constraints.some((constraint) => constraint.async))) return undefined;
    const type = transformerMetadata.findTypeMetadata(cls, name);
    if (type && (type.options?.discriminator || type.reflectedType === Map)) return undefined;
    const nested = metas.some((meta) => meta.type === ValidationTypes.NESTED_VALIDATION);
    if (nested && blank[name] !== undefined) return undefined;
    const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, name);
    plans.push({
      name,
      type,
      transforms: transformerMetadata
        .findTransformMetadatas(cls, name, TransformationType.PLAIN_TO_CLASS)
        .filter((meta) => !meta.options?.groups?.length)
        .map((meta) => meta.transformFn),
      skipped: Boolean(descriptor && !descriptor.set) || blank[name] instanceof Function,
      conditions: metas.filter((meta) => meta.type === ValidationTypes.CONDITIONAL_VALIDATION),
      defined,
      rules,
      nested,
    });
  }
  return plans;
}

/** Keys Nest's pipe deletes before transforming (prototype pollution): its path handles them. */
const PROTO_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A prototype that adds nothing to an object's keys: Object's, none, or an empty object without a
 * prototype (what find-my-way builds route params on: `new NullObject()`, so every `@Param()`
 * DTO took the full pipe before).
 */
function addsNothing(proto: object | null): boolean {
  if (proto === Object.prototype || proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Reflect.ownKeys(proto).length === 0;
}

/** A plain object whose keys are all declared properties and whose values are primitives. */
function isFlatObject(plain: Plain, declared: Map<string, PropertyPlan>): boolean {
  if (typeof plain !== 'object' || Array.isArray(plain)) return false;
  if (!addsNothing(Object.getPrototypeOf(plain) as object | null)) return false;
  for (const key in plain) {
    if (!Object.hasOwn(plain, key) || !declared.has(key) || PROTO_KEYS.has(key)) return false;
    const value = plain[key];
    if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return false;
  }
  return true;
}

/** class-transformer's conversion of a primitive to a property's declared type. */
function convert(value: unknown, type: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (type === String) return String(value);
  if (type === Number) return Number(value);
  if (type === Boolean) return Boolean(value);
  if (type === Date) return new Date(value as string);
  if (type === Buffer) return Buffer.from(value as string);
  return value;
}

/** class-validator's ValidationExecutor over a compiled plan, for an instance without nested values. */
function validatePlans(object: Plain, plans: PropertyPlan[], targetName: string): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const plan of plans) {
    const value = object[plan.name];
    const error = new ValidationError();
    error.property = plan.name;
    error.children = [];
    error.constraints = {};
    // Every condition is evaluated, as class-validator does (map, then reduce).
    const results = plan.conditions.map((meta) => (meta.constraints[0] as (o: object, v: unknown) => boolean)(object, value));
    if (results.every(Boolean)) {
      check(object, value, plan.defined, error, targetName);
      check(object, value, plan.rules, error, targetName);
    }
    if (Object.keys(error.constraints).length > 0) errors.push(error);
  }
  return errors;
}

function check(object: Plain, value: unknown, rules: Rule[], error: ValidationError, targetName: string): void {
  for (const { meta, constraints } of rules) {
    for (const constraint of constraints) {
      const args: ValidationArguments = { targetName, property: meta.propertyName, object, value, constraints: meta.constraints };
      const many = meta.each && (Array.isArray(value) || value instanceof Set || value instanceof Map);
      const items = many ? (value instanceof Map ? [...value.values()] : [...(value as Iterable<unknown>)]) : [value];
      const results: unknown[] = items.map((item) => constraint.instance.validate(item, args));
      if (results.some(isThenable)) throw ASYNC;
      if (results.every(Boolean)) continue;
      const type = constraint.name ? constraint.name : meta.type;
      let message: string | ((args: ValidationArguments) => string) = meta.message || '';
      if (!meta.message && constraint.instance.defaultMessage instanceof Function) message = constraint.instance.defaultMessage({ ...args });
      (error.constraints as Record<string, string>)[type] = ValidationUtils.replaceMessageSpecialTokens(message, { ...args });
    }
  }
}

/** class-validator's own test for an asynchronous answer. */
function isThenable(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
