import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { PlatformConfig } from '@app/platform';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

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

  /** Origin allowed by CORS; unset means same-origin only. */
  @IsOptional()
  @IsString()
  APP_ORIGIN?: string;

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
  @IsString()
  RATE_LIMIT_LOGIN = '10/60';

  @IsString()
  RATE_LIMIT_REGISTER = '10/600';

  /** Writes (POST, PUT, DELETE) per member. */
  @IsString()
  RATE_LIMIT_WRITES = '120/60';

  @IsOptional() @IsString() AUTH_SERVICE_URL?: string;
  @IsOptional() @IsString() SOCIAL_SERVICE_URL?: string;
  @IsOptional() @IsString() REVIEWS_SERVICE_URL?: string;
  @IsOptional() @IsString() SQUADS_SERVICE_URL?: string;
  @IsOptional() @IsString() MESSAGING_SERVICE_URL?: string;
  @IsOptional() @IsString() NOTIFICATIONS_SERVICE_URL?: string;
}
