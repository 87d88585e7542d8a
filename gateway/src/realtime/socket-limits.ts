import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayConfig } from '../config/gateway.config';
import { parseRate } from '../rate-limit/rate-limits';

export interface SocketLimitSettings {
  enabled: boolean;
  /** Client events per socket, "points/seconds". */
  events: string;
  /** `send-message` per member, "points/seconds" (RATE_LIMIT_MESSAGES). */
  messages: string;
}

export function socketLimitSettings(config: GatewayConfig): SocketLimitSettings {
  return { enabled: config.RATE_LIMITS === 'on', events: config.RATE_LIMIT_SOCKET_EVENTS, messages: config.RATE_LIMIT_MESSAGES };
}

/**
 * Budgets for socket events, in this gateway's memory (a socket lives on one gateway):
 * every client event per socket, since a flood of typing or joins with made-up ids costs a
 * messaging lookup each; and message sends per member, so the socket is no way around the
 * HTTP message limit. Windows expire on their own: nothing to clean up on disconnect.
 */
export class SocketLimits {
  private readonly events?: RateLimiterMemory;
  private readonly messages?: RateLimiterMemory;

  constructor(settings: SocketLimitSettings) {
    if (!settings.enabled) return;
    this.events = new RateLimiterMemory({ keyPrefix: 'socket-events', ...parseRate(settings.events) });
    this.messages = new RateLimiterMemory({ keyPrefix: 'socket-messages', ...parseRate(settings.messages) });
  }

  /** Seconds until this socket may send another event; 0 means go ahead (and it is counted). */
  event(socketId: string): Promise<number> {
    return take(this.events, socketId);
  }

  /** Seconds until this member may send another message; 0 means go ahead (and it is counted). */
  message(userId: string): Promise<number> {
    return take(this.messages, userId);
  }
}

async function take(limiter: RateLimiterMemory | undefined, key: string): Promise<number> {
  if (!limiter) return 0;
  try {
    await limiter.consume(key);
    return 0;
  } catch (rejection) {
    // Only a spent budget refuses; anything else must not cost a member their message.
    return rejection instanceof RateLimiterRes ? Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) : 0;
  }
}

export function tooManyEvents(waitSeconds: number): { success: false; message: string } {
  return { success: false, message: `Too many requests, please try again in ${waitSeconds} s` };
}
