import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { hmacKey, PLATFORM_CONFIG, PlatformConfig } from '@app/platform';
import { AuthController } from './auth.controller';
import { AuthEvents } from './auth.events';
import { AuthService } from './auth.service';

@Module({
  imports: [
    JwtModule.registerAsync({
      inject: [PLATFORM_CONFIG],
      useFactory: (config: PlatformConfig) => ({
        // A KeyObject: a string secret is first tried as a PEM key on every sign (see hmacKey).
        secret: hmacKey(config.JWT_SECRET),
        signOptions: { algorithm: 'HS256', expiresIn: config.JWT_TTL_SECONDS },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [AuthController, AuthEvents],
  providers: [AuthService],
})
export class AuthModule {}
