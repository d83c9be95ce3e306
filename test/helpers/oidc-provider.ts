import type { JWK } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import { Server } from 'node:http';
import { freePort } from './free-port';

export const CLIENT_ID = 'atrium';
export const CLIENT_SECRET = 'atrium-test-secret';
export const AUDIENCE = 'atrium-api';
/** The resource the access tokens are for (an absolute URI, as RFC 8707 wants). */
const RESOURCE = 'urn:atrium:api';
/** A redirect URI of the test's own, never followed: where its direct logins end. */
const TEST_CALLBACK = 'http://127.0.0.1/test-callback';
/** Lifetime of the provider's access and ID tokens. */
const TOKEN_SECONDS = 300;

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
}

/**
 * A real OpenID provider (oidc-provider) on loopback, in the test process: one
 * confidential client, JWT access tokens for AUDIENCE (resource indicators), refresh
 * tokens, any login name accepted as the subject, through its (development) login and
 * consent pages. The test holds the signing key, to mint tokens the provider would not.
 */
export class TestProvider {
  private constructor(
    readonly issuer: string,
    readonly signingKey: JWK,
    private readonly server: Server,
  ) {}

  static async start(options: { appCallback: string }): Promise<TestProvider> {
    const { default: Provider } = await import('oidc-provider');
    const { exportJWK, generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const signingKey: JWK = {
      ...(await exportJWK(privateKey)),
      kid: 'test-key',
      alg: 'RS256',
      use: 'sig',
    };
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [options.appCallback, TEST_CALLBACK],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [signingKey] },
      cookies: { keys: [randomBytes(16).toString('hex')] },
      claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({
          sub,
          name: `User ${sub}`,
          email: `${sub}@example.test`,
          preferred_username: sub,
        }),
      }),
      issueRefreshToken: async () => true,
      features: {
        devInteractions: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => RESOURCE,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'openid profile email',
            audience: AUDIENCE,
            accessTokenFormat: 'jwt',
            accessTokenTTL: TOKEN_SECONDS,
          }),
        },
      },
      ttl: { AccessToken: TOKEN_SECONDS, IdToken: TOKEN_SECONDS },
    });
    const server = provider.listen(port);
    await new Promise((done) => server.once('listening', done));
    return new TestProvider(issuer, signingKey, server);
  }

  /** This provider as an entry of OIDC_PROVIDERS (named `test`), with `overrides`. */
  entry(redirectUrls: string[], overrides: object = {}) {
    return {
      name: 'test',
      displayName: 'Test IdP',
      issuer: this.issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      audience: AUDIENCE,
      organization: 'Demo',
      businessUnit: 'Main',
      roles: ['member'],
      redirectUrls,
      ...overrides,
    };
  }

  close(): Promise<void> {
    return new Promise((done) => {
      this.server.closeAllConnections();
      this.server.close(() => done());
    });
  }

  /** Logs `login` in at the provider directly and exchanges the code: the provider's tokens. */
  async tokensFor(login: string): Promise<Tokens> {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(`${this.issuer}/auth`);
    for (const [key, value] of Object.entries({
      client_id: CLIENT_ID,
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: TEST_CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'test',
      nonce: 'test',
    })) {
      authorize.searchParams.set(key, value);
    }
    const final = await new Browser().logIn(authorize.href, login, TEST_CALLBACK);
    const code = new URL(final).searchParams.get('code');
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: TEST_CALLBACK,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        code_verifier: verifier,
      }),
    });
    if (response.status !== 200)
      throw new Error(`token: ${response.status} ${await response.text()}`);
    return (await response.json()) as Tokens;
  }

  /** A token signed with the provider's own key, with whatever claims the test wants. */
  async mint(
    claims: Record<string, unknown>,
    header: Record<string, unknown> = {},
  ): Promise<string> {
    const { importJWK, SignJWT } = await import('jose');
    const key = await importJWK(this.signingKey, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.issuer, aud: AUDIENCE, iat: now, exp: now + 300, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key', ...header })
      .sign(key);
  }
}

/**
 * A browser, as far as a login needs one: follows redirects by hand, keeps cookies,
 * answers the provider's login page with a name and its consent page with a yes. Stops
 * at `until` (not fetched).
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** The provider's pages this browser answered, in order (`login`, `consent`). */
  readonly answered: string[] = [];

  async logIn(start: string, login: string, until: string): Promise<string> {
    let url = start;
    for (let hop = 0; hop < 20; hop++) {
      if (url.startsWith(until)) return url;
      const response = await this.get(url);
      const location = response.headers.get('location');
      if (location) {
        url = new URL(location, url).href;
        continue;
      }
      const page = await response.text();
      const interaction = /\/interaction\/([\w-]+)/.exec(new URL(url).pathname);
      if (!interaction || response.status !== 200) {
        throw new Error(`login stopped at ${url}: ${response.status} ${page.slice(0, 300)}`);
      }
      // The provider's login page asks for a name; its consent page for a yes.
      const form: Record<string, string> = /name="prompt" value="consent"/.test(page)
        ? { prompt: 'consent' }
        : { prompt: 'login', login, password: 'any' };
      this.answered.push(form.prompt);
      const submitted = await this.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      url = new URL(submitted.headers.get('location')!, url).href;
    }
    throw new Error('too many redirects');
  }

  get(url: string): Promise<Response> {
    return this.request(url, { method: 'GET' });
  }

  async request(url: string, init: RequestInit): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}
