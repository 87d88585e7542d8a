import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * What names and e-mail addresses may hold (issue 45 §2, §3; docs/decisions/auth.md): one rule
 * for every DTO that takes a name, and one normal form for addresses, so that what looks like
 * one member is one member.
 */

/** C0 and C1 control characters: NUL, tab, CR, LF, DEL, ... (matching them is the point) */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;
/** Text-direction controls: embeddings, overrides, isolates and the marks (LRM, RLM, ALM). */
const DIRECTION = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Every other format character (zero-width space and joiners, word joiner, BOM, soft hyphen, ...). */
const FORMAT = /\p{Cf}/u;
/** Letters, digits, punctuation and symbols: what draws something on screen ... */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/gu;
/** ... except the blank letters (Hangul fillers, the braille blank), which draw nothing. */
const BLANK_LOOKALIKES = new Set(['\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800']);

/** Why `value` is no acceptable name, or null when it is one. */
export function nameProblem(value: string): 'control' | 'direction' | 'invisible' | null {
  if (CONTROL.test(value)) return 'control';
  if (DIRECTION.test(value)) return 'direction';
  const shown = value.match(VISIBLE) ?? [];
  return shown.some((c) => !BLANK_LOOKALIKES.has(c)) ? null : 'invisible';
}

/**
 * Text stored before these rules, made safe to show where markup cannot isolate it (a page's
 * <title>, meta tags): control characters become spaces, direction controls go.
 */
export function withoutControls(text: string): string {
  return text.replace(new RegExp(CONTROL.source, 'gu'), ' ').replace(new RegExp(DIRECTION.source, 'gu'), '');
}

const NAME_MESSAGES = {
  control: 'must not contain control characters (line breaks, tabs, NUL)',
  direction: 'must not contain text-direction control characters',
  invisible: 'must contain at least one visible character',
} as const;

/**
 * A name people read (a display name, a product's, a squad's, a list's): no control characters,
 * no direction overrides, and at least one character that shows. Joiners inside a name stay
 * (emoji sequences, Persian). `label` starts the message: "Display name must ...".
 */
export function IsVisibleName(label: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isVisibleName',
      validator: {
        // An empty name is IsNotEmpty's to refuse, with its own message.
        validate: (value: unknown) => typeof value !== 'string' || value === '' || nameProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => {
          const problem = typeof args?.value === 'string' ? nameProblem(args.value) : null;
          return `${label} ${NAME_MESSAGES[problem ?? 'invisible']}`;
        },
      },
    },
    options,
  );
}

/**
 * An address as the product keeps it: trimmed, NFKC (a fullwidth `ａ` is `a`), lower-cased in
 * both parts (the product has always treated addresses case-insensitively). What registration
 * stores and checks for uniqueness, and what login and password reset look up.
 */
export function normaliseEmail(value: string): string {
  return value.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** For DTOs: `@Transform(normalisedEmail)`. */
export const normalisedEmail = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? normaliseEmail(value) : value);

/** Why a normalised address is refused at registration, or null. */
export function emailProblem(value: string): string | null {
  if (CONTROL.test(value) || FORMAT.test(value)) return 'Email must not contain invisible or control characters';
  // Non-ASCII local parts and domains make look-alikes (ayşe, Cyrillic а) that no fold catches for
  // sure: refused; an internationalised domain is written in its xn-- form (docs/decisions/auth.md).
  if (/[^\x20-\x7E]/.test(value)) return 'Email must use Latin letters, digits and punctuation only (an international domain in its xn-- form)';
  return null;
}

/** A new address: no invisible or control characters, ASCII only after normalising. */
export function IsPlainEmail(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPlainEmail',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || emailProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => (typeof args?.value === 'string' && emailProblem(args.value)) || 'Email is not acceptable',
      },
    },
    options,
  );
}
