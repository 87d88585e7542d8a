import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ConstraintMetadata } from 'class-validator/types/metadata/ConstraintMetadata';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

import { compilableClass, transformerMetadata } from '../validation/compilable-class';

type Payload = new () => object;
type Plain = Record<string, unknown>;

/**
 * The verdict of a compiled check: `true` when class-validator would find nothing wrong with the
 * payload (as `eventProblems` runs it: plainToInstance, then validateSync with forbidUnknownValues);
 * `false` or `undefined` when it would, or when the payload holds something the plan does not
 * model: the caller then runs the full validation, which also words the problems.
 */
export type EventCheck = (payload: unknown) => boolean | undefined;

interface Rule {
  meta: ValidationMetadata;
  constraints: ConstraintMetadata[];
}

interface PropertyPlan {
  name: string;
  conditions: ValidationMetadata[];
  /** IS_DEFINED rules first, then the custom ones, as class-validator runs them. */
  rules: Rule[];
  /** @ValidateNested with @Type: the nested class's check (a value must be an object, or an array of them). */
  nested?: EventCheck;
}

/**
 * Compiles an event payload class once into what validating a consumed payload needs: every
 * metadata lookup class-validator makes per call (the rules of each property, their constraint
 * classes) is done here, and class-transformer's copy is skipped: for the payloads the plan covers
 * (declared properties holding primitives, arrays of primitives, or nested objects of a @Type class)
 * plainToInstance changes no value a rule looks at. The rules themselves are class-validator's
 * own instances. Undefined for a class it does not model (transforms, exposure strategies,
 * initialised properties, async or promise rules): `eventProblems` then always runs in full.
 */
export function compileEventCheck(cls: Payload, schema?: string): EventCheck | undefined {
  const compilable = compilableClass(cls, schema);
  if (!compilable) return undefined;
  const { metadatas, blank } = compilable;
  const storage = getMetadataStorage();
  // plainToInstance starts from `new cls()`: an initialised property would show its default where the payload has none
  // (declared fields defined as undefined, as the build emits them, are no defaults).
  if (Object.values(blank).some((value) => value !== undefined)) return undefined;

  const plans: PropertyPlan[] = [];
  for (const [name, metas] of Object.entries(storage.groupByPropertyName(metadatas))) {
    if (transformerMetadata.findTransformMetadatas(cls, name, 1 /* PLAIN_TO_CLASS */).length > 0) return undefined;
    const rule = (meta: ValidationMetadata): Rule => ({ meta, constraints: storage.getTargetValidatorConstraints(meta.constraintCls) });
    const rules = [
      ...metas.filter((meta) => meta.type === ValidationTypes.IS_DEFINED).map(rule),
      ...metas.filter((meta) => meta.type === ValidationTypes.CUSTOM_VALIDATION).map(rule),
    ];
    if (rules.some((r) => r.constraints.some((c) => c.async))) return undefined;
    const type = transformerMetadata.findTypeMetadata(cls, name);
    const nestedRules = metas.some((meta) => meta.type === ValidationTypes.NESTED_VALIDATION);
    let nested: EventCheck | undefined;
    if (nestedRules || type) {
      // Only the catalogue's form: @ValidateNested() @Type(() => Class), no discriminator.
      if (!nestedRules || !type || type.options?.discriminator) return undefined;
      const nestedCls = type.typeFunction() as Payload;
      if (typeof nestedCls !== 'function' || nestedCls === cls) return undefined;
      nested = compileEventCheck(nestedCls, cls.name);
      if (!nested) return undefined;
    }
    plans.push({ name, conditions: metas.filter((meta) => meta.type === ValidationTypes.CONDITIONAL_VALIDATION), rules, ...(nested && { nested }) });
  }
  const targetName = cls.name;

  return (payload) => {
    if (!isPlainObject(payload)) return undefined;
    for (const plan of plans) {
      const value = payload[plan.name];
      if (!isPrimitive(value) && !plan.nested && !isPrimitiveArray(value)) return undefined;
      // Every condition is evaluated, as class-validator does; one false skips the property.
      const results = plan.conditions.map((meta) => (meta.constraints[0] as (o: object, v: unknown) => boolean)(payload, value));
      if (!results.every(Boolean)) continue;
      for (const { meta, constraints } of plan.rules) {
        for (const constraint of constraints) {
          const args: ValidationArguments = { targetName, property: meta.propertyName, object: payload, value, constraints: meta.constraints };
          const many = meta.each && Array.isArray(value);
          const results = many ? (value as unknown[]).map((item) => constraint.instance.validate(item, args)) : [constraint.instance.validate(value, args)];
          if (results.some(isThenable)) return undefined;
          if (!results.every(Boolean)) return false;
        }
      }
      if (plan.nested && value !== undefined) {
        const items = Array.isArray(value) ? value : [value];
        for (const item of items) {
          const verdict = plan.nested(item);
          if (verdict !== true) return verdict;
        }
      }
    }
    return true;
  };
}

function isPlainObject(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function isPrimitive(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPrimitiveArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => item !== undefined && isPrimitive(item));
}

function isThenable(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
