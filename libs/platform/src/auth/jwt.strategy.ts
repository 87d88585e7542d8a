import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { JwtClaims } from '@app/contracts';
import { PlatformConfig } from '../config/platform.config';
import { PLATFORM_CONFIG } from '../platform.tokens';
import { AuthenticatedUser } from './current-user.decorator';

/** Bearer JWT, HS256 only (an `alg: none` or RS token is refused), expiry enforced. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.JWT_SECRET,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** passport-jwt checks an expiry only when there is one: a token without `exp` would never expire. */
  validate(claims: JwtClaims): AuthenticatedUser {
    if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || !claims.sub) {
      throw new UnauthorizedException('Invalid or expired token');
    }
    return { id: claims.sub, username: claims.username };
  }
}
