import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Environment } from '../config/environment';
import { ApiKeyController } from './api-key.controller';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AuthenticationGuard } from './authentication.guard';
import { AUTH_ENTITIES } from './entities';
import { LoginLimitRepository } from './login-limit.repository';
import { LoginThrottleService } from './login-throttle.service';
import { ServerInfoService } from './server-info.service';
import { SessionRepository } from './session.repository';
import { SessionService } from './session.service';
import { AccessTokenVerifier } from './oidc/access-token.verifier';
import { ExternalUsers } from './oidc/external-users.service';
import { OauthLoginRepository } from './oidc/oauth-login.repository';
import { OauthController } from './oidc/oauth.controller';
import { OidcProviders } from './oidc/oidc-providers.service';
import { OidcSignIn } from './oidc/oidc-sign-in.service';
import { Sealer } from './oidc/sealer.service';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import {
  BearerIdentities,
  BearerStrategy,
  OpaqueBearerStrategy,
} from './strategies/bearer.strategy';
import { RefreshCookieStrategy } from './strategies/refresh-cookie.strategy';
import { SessionStrategy } from './strategies/session.strategy';
import { UserPasswordHooks } from './user-password.hooks';
import { DirectoryModule } from '../directory/directory.module';
import { AccessModule } from '../access/access.module';
import { ChangesModule } from '../changes/changes.module';

@Module({
  imports: [
    AccessModule,
    DirectoryModule,
    ChangesModule,
    TypeOrmModule.forFeature(AUTH_ENTITIES),
    PassportModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<Environment, true>) => ({
        // `bearer` is two Passport strategies: passport-jwt for JWTs, userinfo for opaque tokens.
        defaultStrategy: config
          .get('AUTH_STRATEGIES', { infer: true })
          .split(',')
          .flatMap((name) => (name === 'bearer' ? ['bearer', 'bearer-opaque'] : [name])),
        session: false,
      }),
    }),
  ],
  controllers: [AuthController, ApiKeyController, OauthController],
  providers: [
    AuthService,
    ApiKeyService,
    ApiKeyRepository,
    LoginThrottleService,
    LoginLimitRepository,
    ServerInfoService,
    SessionService,
    SessionRepository,
    OauthLoginRepository,
    UserPasswordHooks,
    ApiKeyStrategy,
    SessionStrategy,
    RefreshCookieStrategy,
    BearerStrategy,
    OpaqueBearerStrategy,
    BearerIdentities,
    OidcProviders,
    AccessTokenVerifier,
    ExternalUsers,
    OidcSignIn,
    Sealer,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
  ],
  exports: [ApiKeyService],
})
export class AuthModule {}
