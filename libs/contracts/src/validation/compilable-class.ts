import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

// class-transformer's metadata (@Type, @Transform, @Expose) has no typed entry point beside its cjs build.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
export const transformerMetadata = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage }).defaultMetadataStorage;

/** A class's validation metadata and a blank instance of it, as a compiled check starts from. */
export interface CompilableClass {
  metadatas: ValidationMetadata[];
  blank: Record<string, unknown>;
}

/**
 * What a compiled check (an event payload's, a request DTO's) needs before it can skip
 * class-transformer's copy and class-validator's per-call metadata walk: the class's rules and a
 * blank instance. Undefined for a class those checks do not model: no rules at all, async rules,
 * a transform strategy or exposure rules, a constructor that throws. The caller adds its own limits.
 */
export function compilableClass(cls: new () => object, schema?: string): CompilableClass | undefined {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, schema as string, false, false, undefined);
  if (metadatas.length === 0) return undefined;
  if (metadatas.some((meta) => meta.type === ValidationTypes.PROMISE_VALIDATION)) return undefined;
  if (transformerMetadata.getStrategy(cls) !== 'none') return undefined;
  if (transformerMetadata.getExposedMetadatas(cls).length > 0 || transformerMetadata.getExcludedMetadatas(cls).length > 0) return undefined;
  try {
    return { metadatas, blank: new cls() as Record<string, unknown> };
  } catch {
    return undefined;
  }
}
