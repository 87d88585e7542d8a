export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
/** The AccessTokenVerifier every guard of the service shares (one token cache per process part). */
export const ACCESS_TOKENS = Symbol('ACCESS_TOKENS');
