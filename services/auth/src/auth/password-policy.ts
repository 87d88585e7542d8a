import { AuthException } from '../auth.errors';

/**
 * zxcvbn's score (0-4) a password needs: 2 means more than 10^8 guesses, out of reach of an
 * online attacker held to the login rate limit, while common passwords, keyboard walks,
 * repeats, dates and dictionary words with digits (`password1`, `demo1234`) score 0 or 1.
 */
export const MIN_PASSWORD_SCORE = 2;
export const WEAK_PASSWORD = 'Password is too easy to guess; use a longer phrase or mix in unrelated words';

type Estimator = InstanceType<typeof import('@zxcvbn-ts/core').ZxcvbnFactory>;
let estimator: Estimator | undefined;

/**
 * zxcvbn with its dictionaries, built at the first password checked: the dictionaries are
 * megabytes of word lists that a service booting to serve logins and pages does not need yet.
 */
function passwordEstimator(): Estimator {
  if (!estimator) {
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, see above */
    const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const en = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
    /* eslint-enable @typescript-eslint/no-require-imports */
    estimator = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
  }
  return estimator;
}

/**
 * NIST SP 800-63B §5.1.1.2: the length is checked by the DTO (8 to 128); here a password that
 * is common, guessable or built from the member's own email or name is refused with a 400
 * naming `field`, zxcvbn's own hint added when it has one.
 */
export function assertStrongPassword(password: string, field: string, personal: string[]): void {
  const { score, feedback } = passwordEstimator().check(password, personal.flatMap((s) => [s, ...s.split(/[^\p{L}\p{N}]+/u)]).filter(Boolean));
  if (score >= MIN_PASSWORD_SCORE) return;
  const messages = [WEAK_PASSWORD, ...(feedback.warning ? [feedback.warning] : [])];
  throw new AuthException('WEAK_PASSWORD', WEAK_PASSWORD, [{ field, messages }]);
}
