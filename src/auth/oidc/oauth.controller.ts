import {
  Controller,
  Get,
  HttpRedirectResponse,
  HttpStatus,
  Param,
  Query,
  Redirect,
  Req,
  Res,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBadRequestResponse, ApiFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { HttpRequest, HttpResponse } from '../../http/http.types';
import { Environment } from '../../config/environment';
import { Public } from '../../http/caller.decorators';
import { setRefreshCookies, setSessionCookies } from '../session-cookies';
import { OidcProviders } from './oidc-providers.service';
import { OidcSignIn } from './oidc-sign-in.service';

export interface OauthProviderDto {
  name: string;
  displayName: string;
  default: boolean;
  /** Where a browser starts a login with it (add `?redirectUrl=…`). */
  loginUrl: string;
}

/** Spec 5.4: the providers, starting a login, and the provider's callback. */
@ApiTags('session')
@Controller('oauth')
export class OauthController {
  private readonly publicUrl?: string;

  constructor(
    private readonly providers: OidcProviders,
    private readonly signIn: OidcSignIn,
    config: ConfigService<Environment, true>,
  ) {
    this.publicUrl = config.get('PUBLIC_URL', { infer: true });
  }

  @Get()
  @Public()
  @ApiOkResponse({ description: '[{name, displayName, default, loginUrl}]' })
  list(@Req() request: HttpRequest): OauthProviderDto[] {
    const base = this.baseOf(request);
    return this.providers.all.map((p) => ({
      name: p.name,
      displayName: p.displayName,
      default: p.isDefault,
      loginUrl: `${base}/oauth/${encodeURIComponent(p.name)}/login`,
    }));
  }

  @Get(':provider/login')
  @Public()
  @Redirect()
  @ApiFoundResponse({ description: "To the provider's authorization page (code flow with PKCE)" })
  @ApiBadRequestResponse({ description: 'redirectUrl missing or not on the allow-list' })
  async login(
    @Param('provider') provider: string,
    @Query('redirectUrl') redirectUrl: string | undefined,
    @Req() request: HttpRequest,
  ): Promise<HttpRedirectResponse> {
    const url = await this.signIn.authorizationUrl(provider, redirectUrl, this.baseOf(request));
    return { url, statusCode: HttpStatus.FOUND };
  }

  @Get(':provider')
  @Public()
  @Redirect()
  @ApiFoundResponse({ description: 'Signed in (the cookies of spec 5.3 and 5.4): to redirectUrl' })
  @ApiBadRequestResponse({ description: 'state invalid, expired, tampered or used; code refused' })
  async callback(
    @Param('provider') provider: string,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<HttpRedirectResponse> {
    const currentUrl = new URL(request.url, this.baseOf(request));
    const { session, refreshToken, redirectUrl } = await this.signIn.finishLogin(
      provider,
      currentUrl,
      request,
    );
    setSessionCookies(response, session);
    if (refreshToken) setRefreshCookies(response, provider, refreshToken);
    return { url: redirectUrl, statusCode: HttpStatus.FOUND };
  }

  /** PUBLIC_URL, or the scheme and host the request came to (TRUST_PROXY decides). */
  private baseOf(request: HttpRequest): string {
    return this.publicUrl ?? `${request.protocol}://${request.host}`;
  }
}
