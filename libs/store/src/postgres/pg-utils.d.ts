/** node-postgres's mapping of a parameter's JavaScript value to its text, as its own queries send it (not in @types/pg). */
declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): unknown;
}
