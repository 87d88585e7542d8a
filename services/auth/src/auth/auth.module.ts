import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { hmacKey, MailModule, PLATFORM_CONFIG, PlatformConfig } from '@app/platform';
import { AccountController } from '../account/account.controller';
import { authMailCollection } from '../account/account.collections';
import { PasswordResetService } from '../account/password-reset.service';
import { TwoFactorService } from '../account/two-factor.service';
import { ErasureController } from '../erasure/erasure.controller';
import { ErasureEvents } from '../erasure/erasure.events';
import { ErasureService } from '../erasure/erasure.service';
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
    // Reset links are a credential: auth sends them itself rather than over the bus (docs/decisions/auth.md).
    MailModule.forOutbox(authMailCollection, { forgetBody: true }),
  ],
  controllers: [AuthController, AccountController, AuthEvents, ErasureController, ErasureEvents],
  providers: [AuthService, PasswordResetService, TwoFactorService, ErasureService],
  exports: [AuthService],
})
export class AuthModule {}
