import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayRequest } from '../access/token-check';
import { GatewayConfig } from '../config/gateway.config';
import type { Step } from '../http/pipeline';
import { sendEnvelopeError } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';

export interface RateLimitSettings {
  enabled: boolean;
  login: string;
  register: string;
  writes: string;
  /** Per member, on top of `writes`: the actions spammers repeat. */
  reviews: string;
  likes: string;
  messages: string;
  follows: string;
}

/** The gateway config's RATE_LIMIT_* variables (README) as settings. */
export function rateLimitSettings(config: GatewayConfig): RateLimitSettings {
  return {
    enabled: config.RATE_LIMITS === 'on',
    login: config.RATE_LIMIT_LOGIN,
    register: config.RATE_LIMIT_REGISTER,
    writes: config.RATE_LIMIT_WRITES,
    reviews: config.RATE_LIMIT_REVIEWS,
    likes: config.RATE_LIMIT_LIKES,
    messages: config.RATE_LIMIT_MESSAGES,
    follows: config.RATE_LIMIT_FOLLOWS,
  };
}

/** "10/60" -> 10 points per 60 seconds. */
export function parseRate(rule: string): { points: number; duration: number } {
  const match = /^(\d+)\/(\d+)$/.exec(rule.trim());
  if (!match) throw new Error(`Rate limit "${rule}" must look like points/seconds, e.g. 10/60`);
  return { points: Number(match[1]), duration: Number(match[2]) };
}

interface Rule {
  limiter: RateLimiterAbstract;
  /** The key to count under, or undefined when the rule does not apply to this request. */
  keyOf(req: GatewayRequest): string | undefined;
}


/** The client's address (proxies on loopback trusted), per which sign-in attempts are counted. */
const addressOf = (r: GatewayRequest): string | undefined => r.ip ?? r.socket.remoteAddress;

/** Per-member actions with their own budget: [name, matches(method, path)]. */
const MEMBER_ACTIONS: Array<[keyof RateLimitSettings & ('reviews' | 'likes' | 'messages' | 'follows'), RegExp]> = [
  ['reviews', /^\/api\/reviews$/],
  ['likes', /^\/api\/likes\/(reviews|products)\/[^/]+$/],
  ['messages', /^\/api\/messages\/conversations\/[^/]+\/messages$/],
  // A follow of a private member is a follow request: the same route.
  ['follows', /^\/api\/follows\/users\/[^/]+$/],
];

/** Password reset and two-factor routes: each tries a token, a code or a password. */
const ACCOUNT_SECRETS = /^\/api\/auth\/(password-reset(\/confirm)?|2fa\/(setup|enable|verify|disable))$/;

/**
 * Rules read the path as the services route it (routePath): `/api/auth/LOGIN`, `//login`,
 * `/%6cogin` and `/login/` all count against the login budget.
 * Login and register per address, writes per member, and a tighter budget per member for
 * posting reviews, liking, messaging and following (ARCHITECTURE §5). Counted in `redis`
 * when given (RateLimitStore: REDIS_URL set), so every gateway replica shares the same windows.
 */
export function createRateLimits(settings: RateLimitSettings, redis?: Redis): Step<GatewayRequest> {
  if (!settings.enabled) return (_req, _res, next) => next();
  const limiter = (name: string, rule: string): RateLimiterAbstract => {
    const opts = { keyPrefix: `rl:${name}`, ...parseRate(rule) };
    return redis
      ? new RateLimiterRedis({ storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts), ...opts })
      : new RateLimiterMemory(opts);
  };
  const rules: Rule[] = [
    { limiter: limiter('login', settings.login), keyOf: (r) => (r.method === 'POST' && routePath(r.url ?? '/') === '/api/auth/login' ? addressOf(r) : undefined) },
    // Reset and two-factor calls guess or spray secrets as login does: the login rate, a window of their own.
    { limiter: limiter('account', settings.login), keyOf: (r) => (r.method === 'POST' && ACCOUNT_SECRETS.test(routePath(r.url ?? '/')) ? addressOf(r) : undefined) },
    {
      limiter: limiter('register', settings.register),
      keyOf: (r) => (r.method === 'POST' && routePath(r.url ?? '/') === '/api/auth/register' ? addressOf(r) : undefined),
    },
    ...MEMBER_ACTIONS.map(([name, pattern]): Rule => ({
      limiter: limiter(name, settings[name]),
      keyOf: (r) => (r.userId && r.method === 'POST' && pattern.test(routePath(r.url ?? '/')) ? r.userId : undefined),
    })),
    {
      limiter: limiter('writes', settings.writes),
      keyOf: (r) => (r.userId && r.method !== 'GET' && r.method !== 'HEAD' ? r.userId : undefined),
    },
  ];

  return async (req, res, next) => {
    for (const rule of rules) {
      const key = rule.keyOf(req);
      if (key === undefined) continue;
      try {
        await rule.limiter.consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) return next(rejection);
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        return sendEnvelopeError(res, 429, 'Too many requests, please try again later', { 'Retry-After': String(retryAfter) });
      }
    }
    next();
  };
}
