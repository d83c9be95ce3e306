import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpRequest, nodeRequestOf } from '../http/http.types';
import { version } from '../../package.json';
import { Identity } from '../common/identity';
import { Environment } from '../config/environment';
import { ServerInfoDto } from './dto/server-info.dto';
import { OidcProviders } from './oidc/oidc-providers.service';

@Injectable()
export class ServerInfoService {
  private readonly name: string;

  constructor(
    config: ConfigService<Environment, true>,
    private readonly providers: OidcProviders,
  ) {
    this.name = config.get('SERVER_NAME', { infer: true });
  }

  /**
   * `ip` and `protocol` honour X-Forwarded-For / -Proto only when TRUST_PROXY is set
   * (the platform's trust-proxy setting, src/http/).
   */
  describe(request: HttpRequest, identity: Identity | undefined): ServerInfoDto {
    const info: ServerInfoDto = {
      clientAdress: request.ip ?? nodeRequestOf(request).socket.remoteAddress ?? '',
      oidcIssuer: this.providers.defaultProvider?.issuer ?? '',
      name: this.name,
      isSecure: request.protocol === 'https',
      version,
    };
    if (!identity) return info;
    return {
      ...info,
      userName: identity.userName,
      userFullName: identity.userFullName,
      userKey: identity.userKey,
      userBusinessUnitKey: identity.businessUnitKey,
      userOrganizationKey: identity.organizationKey,
    };
  }
}
