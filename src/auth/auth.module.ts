import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Environment } from '../config/environment';
import { ApiKeyController } from './api-key.controller';
import { ApiKeyService } from './api-key.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AuthenticationGuard } from './authentication.guard';
import { BootstrapService } from './bootstrap.service';
import { AUTH_ENTITIES } from './entities';
import { LoginThrottleService } from './login-throttle.service';
import { OrganizationService } from './organization.service';
import { ServerInfoService } from './server-info.service';
import { SessionService } from './session.service';
import { AccessTokenVerifier } from './oidc/access-token.verifier';
import { ExternalUsers } from './oidc/external-users.service';
import { OauthController } from './oidc/oauth.controller';
import { OidcProviders } from './oidc/oidc-providers.service';
import { OidcSignIn } from './oidc/oidc-sign-in.service';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import {
  BearerIdentities,
  BearerStrategy,
  OpaqueBearerStrategy,
} from './strategies/bearer.strategy';
import { RefreshCookieStrategy } from './strategies/refresh-cookie.strategy';
import { SessionStrategy } from './strategies/session.strategy';
import { UserHooks } from './user.hooks';
import { UserService } from './user.service';

@Module({
  imports: [
    DiscoveryModule,
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
    BootstrapService,
    LoginThrottleService,
    OrganizationService,
    ServerInfoService,
    SessionService,
    UserService,
    UserHooks,
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
    { provide: APP_GUARD, useClass: AuthenticationGuard },
  ],
  exports: [OrganizationService, UserService, ApiKeyService],
})
export class AuthModule {}
