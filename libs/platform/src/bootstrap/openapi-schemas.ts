import { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { defaultConverters, type SchemaConverter } from 'class-validator-jsonschema/build/defaultConverters';

// class-transformer ships no typings beside its cjs build; its @Type() names nested DTO classes.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deep import without typings
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage };

type Dto = new () => object;
type Schema = { properties?: Record<string, Record<string, unknown>>; required?: string[]; [key: string]: unknown };
type Operation = { operationId?: string; parameters?: { name: string; in: string }[] };

/** A custom rule may carry its JSON schema as `constraints: [{ jsonSchema }]` (the rating's half steps). */
const customRule: SchemaConverter = (meta, options) => {
  const carried = (meta.constraints?.[0] as { jsonSchema?: ReturnType<SchemaConverter> } | undefined)?.jsonSchema;
  return carried ?? (defaultConverters[ValidationTypes.CUSTOM_VALIDATION] as SchemaConverter)(meta, options);
};

const OPTIONS = {
  refPointerPrefix: '#/components/schemas/',
  classTransformerMetadataStorage: defaultMetadataStorage,
  additionalConverters: { [ValidationTypes.CUSTOM_VALIDATION]: customRule },
};

/** The JSON schema of a DTO from its class-validator rules (its parents' included). */
const schemaOf = (dto: Dto) => targetConstructorToSchema(dto, OPTIONS) as Schema;

const isEmpty = (schema: unknown) => {
  const s = schema as Schema | undefined;
  return !s || (Object.keys(s.properties ?? {}).length === 0 && Object.keys(s).every((k) => k === 'type' || k === 'properties'));
};

/** The DTO classes of every handler's whole-object `@Body()` and `@Query()`, by swagger's operation id. */
function routeDtos(app: INestApplication): { operationId: string; in: 'body' | 'query'; dto: Dto }[] {
  const found: { operationId: string; in: 'body' | 'query'; dto: Dto }[] = [];
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      for (const method of scanner.getAllMethodNames(metatype.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, metatype, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
        const types = (Reflect.getMetadata('design:paramtypes', metatype.prototype, method) ?? []) as unknown[];
        for (const [key, arg] of Object.entries(args)) {
          const kind = Number(key.split(':')[0]);
          const dto = types[arg.index];
          if (arg.data !== undefined || typeof dto !== 'function' || ![RouteParamtypes.BODY, RouteParamtypes.QUERY].includes(kind)) continue;
          found.push({ operationId: `${metatype.name}_${method}`, in: kind === RouteParamtypes.BODY ? 'body' : 'query', dto: dto as Dto });
        }
      }
    }
  }
  return found;
}

/** Classes a DTO nests (`@ValidateNested()` with `@Type()`), to document under their own names. */
function nestedDtos(dto: Dto): Dto[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((m) => m.type === ValidationTypes.NESTED_VALIDATION)
    .map((m) => (defaultMetadataStorage.findTypeMetadata(m.target as Dto, m.propertyName)?.typeFunction() ??
      Reflect.getMetadata('design:type', (m.target as Dto).prototype, m.propertyName)) as Dto)
    .filter((t) => typeof t === 'function' && t !== Array && t !== Object);
}

/**
 * Fills what swagger cannot see without `@ApiProperty` (the build runs no swagger plugin):
 * body schemas it left empty get the DTO's class-validator rules as JSON schema (types,
 * required, lengths, ranges, enums, formats), and a query DTO becomes one typed query
 * parameter per property (its initial value as default).
 */
export function addValidationSchemas(app: INestApplication, document: OpenAPIObject): OpenAPIObject {
  const schemas = ((document.components ??= {}).schemas ??= {}) as Record<string, unknown>;
  const operations = new Map<string, Operation>();
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item) as Operation[]) if (op?.operationId) operations.set(op.operationId, op);
  }
  const addSchema = (dto: Dto): void => {
    if (!isEmpty(schemas[dto.name])) return; // documented already (by swagger, or another route)
    schemas[dto.name] = schemaOf(dto);
    nestedDtos(dto).forEach(addSchema);
  };
  for (const route of routeDtos(app)) {
    const op = operations.get(route.operationId);
    if (!op) continue;
    if (route.in === 'body') {
      addSchema(route.dto);
      continue;
    }
    const schema = schemaOf(route.dto);
    nestedDtos(route.dto).forEach(addSchema);
    const defaults = new route.dto() as Record<string, unknown>;
    const taken = new Set((op.parameters ?? []).map((p) => `${p.in}:${p.name}`));
    const params = Object.entries(schema.properties ?? {})
      .filter(([name]) => !taken.has(`query:${name}`))
      .map(([name, prop]) => ({
        name,
        in: 'query',
        required: schema.required?.includes(name) ?? false,
        schema: defaults[name] === undefined ? prop : { ...prop, default: defaults[name] },
      }));
    op.parameters = [...(op.parameters ?? []), ...params];
  }
  return document;
}
