import type { NextFunction, Response } from 'express';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayRequest } from '../access/token-check';
import { sendEnvelopeError } from '../proxy/envelope-reply';

export interface RateLimitSettings {
  enabled: boolean;
  login: string;
  register: string;
  writes: string;
  redisUrl?: string;
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

/**
 * Login and register per address, writes per member (ARCHITECTURE §5). Counted in Redis
 * when REDIS_URL is set, so every gateway replica shares the same windows.
 */
export function createRateLimits(settings: RateLimitSettings) {
  if (!settings.enabled) return (_req: GatewayRequest, _res: Response, next: NextFunction) => next();
  const redis = settings.redisUrl ? new Redis(settings.redisUrl, { enableOfflineQueue: false, lazyConnect: false }) : undefined;
  redis?.on('error', () => undefined);
  const limiter = (name: string, rule: string): RateLimiterAbstract => {
    const opts = { keyPrefix: `rl:${name}`, ...parseRate(rule) };
    return redis
      ? new RateLimiterRedis({ storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts), ...opts })
      : new RateLimiterMemory(opts);
  };
  const path = (req: GatewayRequest) => req.originalUrl.split('?', 1)[0];
  const rules: Rule[] = [
    { limiter: limiter('login', settings.login), keyOf: (r) => (r.method === 'POST' && path(r) === '/api/auth/login' ? r.ip : undefined) },
    {
      limiter: limiter('register', settings.register),
      keyOf: (r) => (r.method === 'POST' && path(r) === '/api/auth/register' ? r.ip : undefined),
    },
    {
      limiter: limiter('writes', settings.writes),
      keyOf: (r) => (r.userId && r.method !== 'GET' && r.method !== 'HEAD' ? r.userId : undefined),
    },
  ];

  return async (req: GatewayRequest, res: Response, next: NextFunction): Promise<void> => {
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
