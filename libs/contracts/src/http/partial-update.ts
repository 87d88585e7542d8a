import { ValidateIf } from 'class-validator';

/**
 * A field of a partial update: left alone when absent, validated like any value when present.
 * class-validator's @IsOptional lets null through as well, and a null written over a name, a
 * rating or a setting is data the rest of the product cannot read.
 */
export const IsAbsentOrValid = () => ValidateIf((_o, value) => value !== undefined);
