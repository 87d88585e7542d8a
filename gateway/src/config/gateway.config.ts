import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, Validate, ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { PlatformConfig } from '@app/platform';
import { trustedProxyEntries, trustedProxyProblem } from '../access/client-address';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
/** A rate limit: "points/seconds", both at least 1. */
const RATE = /^[1-9]\d*\/[1-9]\d*$/;
const RATE_MESSAGE = 'must look like points/seconds, e.g. 10/60';

@ValidatorConstraint({ name: 'trustProxyList' })
class TrustProxyList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && trustedProxyEntries(value).every((entry) => trustedProxyProblem(entry) === null);
  }

  defaultMessage({ value }: ValidationArguments): string {
    const problems = typeof value === 'string' ? trustedProxyEntries(value).map(trustedProxyProblem).filter(Boolean) : ['must be a string'];
    return problems.join('; ');
  }
}

/** The gateway's settings on top of the shared ones; every limit has its variable (README). */
export class GatewayConfig extends PlatformConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** The built SPA (vite build output). */
  @IsString()
  WEB_DIR = 'web/dist';

  /**
   * The proxies in front of the gateway whose X-Forwarded-For is believed (comma-separated
   * addresses, ranges like 10.0.0.0/8, or `loopback`). Empty (the default): the connection's peer
   * is the client, whatever the request says.
   */
  @Validate(TrustProxyList)
  TRUST_PROXY = '';

  @Transform(toInt)
  @IsInt()
  @Min(100)
  UPSTREAM_TIMEOUT_MS = 10_000;

  /** Largest JSON body the gateway lets through, in bytes. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES = 1024 * 1024;

  /** Largest upload (POST /api/media), in bytes; the reviews service enforces 2 MB per file itself. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024 + 64 * 1024;

  /** "points/seconds" per client address. */
  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_LOGIN = '10/60';

  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_REGISTER = '10/600';

  /** Writes (POST, PUT, DELETE) per member. */
  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_WRITES = '120/60';

  /** Reviews posted per member (POST /api/reviews). */
  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_REVIEWS = '20/600';

  /** Like toggles per member, reviews and products together. */
  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_LIKES = '60/60';

  /** Messages sent per member over HTTP; the socket's `send-message` has the same budget per gateway. */
  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_MESSAGES = '60/60';

  /** Follows and follow requests per member. */
  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_FOLLOWS = '30/600';

  /** Client events (send, typing, join, leave) per socket; over it acks fail and typing is dropped. */
  @Matches(RATE, { message: RATE_MESSAGE })
  RATE_LIMIT_SOCKET_EVENTS = '30/10';

  @IsOptional() @IsString() AUTH_SERVICE_URL?: string;
  @IsOptional() @IsString() SOCIAL_SERVICE_URL?: string;
  @IsOptional() @IsString() REVIEWS_SERVICE_URL?: string;
  @IsOptional() @IsString() SQUADS_SERVICE_URL?: string;
  @IsOptional() @IsString() MESSAGING_SERVICE_URL?: string;
  @IsOptional() @IsString() NOTIFICATIONS_SERVICE_URL?: string;
}

/**
 * The origin absolute links are built from: APP_ORIGIN, or http://localhost:PORT in development
 * (production refuses to start without APP_ORIGIN). Never the request's Host header.
 */
export function siteOrigin(config: Pick<GatewayConfig, 'APP_ORIGIN' | 'PORT'>): string {
  return (config.APP_ORIGIN ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}
