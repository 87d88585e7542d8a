/** A unique index refused a write. The platform's exception filter answers it with 409. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly detail: string,
  ) {
    super(`Duplicate key in ${collection}: ${detail}`);
    this.name = 'DuplicateKeyError';
  }
}

/** The engine cannot be reached or opened. Boot fails fast with this message. */
export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/** Messages name an engine's URL, but never its password. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
}
