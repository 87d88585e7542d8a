/** NIST SP 800-63B: at least 8 characters (and not a common or guessable one: the auth service checks that). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
