import type { FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type Factories = NonNullable<SchemaController['compilersFactory']>;
type Factory = (...args: unknown[]) => unknown;

/**
 * One of Fastify's compiler factories, required from Fastify's folder (they are its dependencies,
 * not ours) and made on the first call, then reused.
 */
function onFirstUse<F>(name: string): F {
  let made: Factory | undefined;
  const factory: Factory = (...args) => {
    made ??= (createRequire(require.resolve('fastify'))(name) as () => Factory)();
    return made(...args);
  };
  return factory as F;
}

/**
 * Fastify's schema compilers (Ajv with its formats, fast-json-stringify), loaded when a route first
 * declares a schema instead of when the server is made. No route here does (Nest's routes are
 * validated with class-validator), and loading them was about a tenth of each process's start
 * (issue 44). Fastify calls the factories only to compile a schema.
 */
export const lazySchemaCompilers: SchemaController = {
  compilersFactory: {
    buildValidator: onFirstUse<Factories['buildValidator']>('@fastify/ajv-compiler'),
    buildSerializer: onFirstUse<Factories['buildSerializer']>('@fastify/fast-json-stringify-compiler'),
  },
};
