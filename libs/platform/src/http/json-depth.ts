/** Deepest JSON nesting a body may have: far beyond any DTO here, far below a stack overflow. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_MESSAGE = 'Request body is nested too deeply';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Whether JSON text (UTF-8 bytes or a string) nests arrays and objects deeper than `max`.
 * One pass over the code units, outside strings only: a recursive parse or validation of
 * such a body (ValidationPipe's prototype-key stripping) would overflow the stack. Multi-byte
 * UTF-8 sequences never contain ASCII bytes, so bytes and text give the same answer.
 */
export function jsonDepthExceeds(json: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  const at = typeof json === 'string' ? (i: number) => json.charCodeAt(i) : (i: number) => json[i];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPENERS.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(c)) {
      depth--;
    }
  }
  return false;
}
