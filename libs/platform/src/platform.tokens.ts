export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
