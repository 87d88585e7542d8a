export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
/** The AccessTokenVerifier every guard of the service shares (one token cache per process part). */
export const ACCESS_TOKENS = Symbol('ACCESS_TOKENS');
/** The service's pino logger: Nest's logger and the request lines both write through it. */
export const SERVICE_LOGGER = Symbol('SERVICE_LOGGER');
