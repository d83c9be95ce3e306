import {
  Body,
  Controller,
  Get,
  Head,
  Headers,
  HttpCode,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { HttpRequest, HttpResponse } from '../http/http.types';
import { Identity } from '../common/identity';
import { parseBody } from '../http/validation.pipe';
import { CsrfExempt, CurrentIdentity, Public } from '../http/caller.decorators';
import { AuthService } from './auth.service';
import { ChangePasswordDto } from './dto/change-password.dto';
import { LoginDto } from './dto/login.dto';
import { LoginOriginGuard } from './login-origin.guard';
import { ServerInfoDto } from './dto/server-info.dto';
import { ServerInfoService } from './server-info.service';
import {
  AUTH_TOKEN_COOKIE,
  clearSessionCookies,
  readCookie,
  sendCsrfToken,
  setSessionCookies,
} from './session-cookies';

const FORM = 'application/x-www-form-urlencoded';

@ApiTags('session')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly serverInfo: ServerInfoService,
  ) {}

  // Declared before GET /auth: both platforms answer HEAD with the first route that takes it.
  @Head()
  @Public()
  @ApiOkResponse({ description: 'With ?logout=1: ends the session and clears its cookies' })
  async logout(
    @Query('logout') logout: string | undefined,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<void> {
    if (logout !== '1' && logout !== 'true') return;
    await this.auth.logout(readCookie(request, AUTH_TOKEN_COOKIE), request);
    clearSessionCookies(response, request);
  }

  @Get()
  @Public()
  @ApiOkResponse({
    type: ServerInfoDto,
    description:
      'User fields only when authenticated; with a session cookie, its CSRF token in X-CSRF-Token',
  })
  info(
    @CurrentIdentity() identity: Identity | undefined,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpResponse,
  ): ServerInfoDto {
    // A page that did not make the login (a new tab, the return from an OpenID provider)
    // learns the token here; other sites cannot read this answer, as no CORS is granted.
    if (identity?.session) sendCsrfToken(response, identity.session.csrfToken);
    return this.serverInfo.describe(request, identity);
  }

  @Post()
  @Public()
  @CsrfExempt()
  @UseGuards(LoginOriginGuard)
  @HttpCode(200)
  @ApiConsumes('application/json', FORM)
  @ApiBody({ type: LoginDto, required: false })
  @ApiHeader({ name: 'Oidc-Auth-Token', required: false, description: 'Token login (OpenID)' })
  @ApiHeader({
    name: 'Oidc-Refresh-Token',
    required: false,
    description: 'With Oidc-Auth-Token: the server renews the access token itself',
  })
  @ApiOkResponse({ type: ServerInfoDto, description: 'Sets the three session cookies' })
  @ApiUnauthorizedResponse({ description: 'Invalid user or password' })
  @ApiForbiddenResponse({ description: 'Sent by a page of another site (login CSRF)' })
  @ApiTooManyRequestsResponse({ description: 'Too many failed attempts; see Retry-After' })
  async login(
    @Body() body: unknown,
    @Headers('oidc-auth-token') oidcToken: string | undefined,
    @Headers('oidc-refresh-token') oidcRefreshToken: string | undefined,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<ServerInfoDto> {
    const { session, info } =
      oidcToken !== undefined
        ? await this.auth.tokenLogin(oidcToken, oidcRefreshToken, request)
        : await this.auth.login(await parseBody(LoginDto, body), request);
    setSessionCookies(response, session);
    return info;
  }

  @Post('password')
  @HttpCode(204)
  @ApiConsumes(FORM)
  @ApiNoContentResponse({ description: 'Changed; the user’s other sessions are ended' })
  @ApiUnauthorizedResponse({ description: 'Wrong current password, or not signed in' })
  @ApiTooManyRequestsResponse({ description: 'Too many failed attempts; see Retry-After' })
  changePassword(
    @CurrentIdentity() identity: Identity,
    @Body() form: ChangePasswordDto,
    @Req() request: HttpRequest,
  ): Promise<void> {
    return this.auth.changePassword(identity, form, request);
  }
}
