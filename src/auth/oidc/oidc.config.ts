import { plainToInstance } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  validateSync,
} from 'class-validator';
import { readFileSync } from 'node:fs';

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** One entry of OIDC_PROVIDERS, as written (docs/http-reference.md, "OpenID Connect"). */
class ProviderEntry {
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/, {
    message: 'name must be a word of letters, digits, _ and -',
  })
  name: string;
  @IsOptional() @IsString() @Length(1, 200) displayName?: string;
  @IsUrl(URL_OPTIONS) issuer: string;
  @IsString() @Length(1, 500) clientId: string;
  /** Absent for a public client (PKCE alone). */
  @IsOptional() @IsString() clientSecret?: string;
  @IsOptional() @IsString() scopes?: string;
  /** The `aud` (or `azp`) an access token must carry; the client id by default. */
  @IsOptional() @IsString() audience?: string;
  @IsOptional() @IsBoolean() default?: boolean;
  @IsOptional() @IsBoolean() autoProvision?: boolean;
  /** Where users it creates land: names of an organization and one of its business units. */
  @IsString() @Length(1, 200) organization: string;
  @IsString() @Length(1, 200) businessUnit: string;
  /** Names of roles (of that organization) the users it creates hold. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  roles?: string[];
  /** Where a login may return to; anything else is refused (no open redirect). */
  @IsArray() @IsUrl(URL_OPTIONS, { each: true }) redirectUrls: string[];
}

export interface OidcProvider {
  name: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  audience: string;
  isDefault: boolean;
  autoProvision: boolean;
  organization: string;
  businessUnit: string;
  roles: string[];
  redirectUrls: string[];
}

/**
 * The providers of OIDC_PROVIDERS (JSON) or OIDC_PROVIDERS_FILE, checked at boot: a bad
 * entry stops the server with a message naming it. Plain http issuers are accepted for
 * loopback addresses only (tests, local development).
 */
export function loadOidcProviders(env: {
  OIDC_PROVIDERS?: string;
  OIDC_PROVIDERS_FILE?: string;
}): OidcProvider[] {
  const [source, text] = env.OIDC_PROVIDERS_FILE
    ? [
        `OIDC_PROVIDERS_FILE (${env.OIDC_PROVIDERS_FILE})`,
        readFileSync(env.OIDC_PROVIDERS_FILE, 'utf8'),
      ]
    : ['OIDC_PROVIDERS', env.OIDC_PROVIDERS];
  if (!text) return [];
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(entries)) throw new Error(`${source} must be a JSON array of providers`);
  const providers = entries.map((entry, i) => checked(entry, `${source}[${i}]`));
  const names = providers.map((p) => p.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`${source}: two providers are named "${twice}"`);
  const defaults = providers.filter((p) => p.isDefault);
  if (defaults.length > 1) throw new Error(`${source}: more than one provider is the default`);
  if (defaults.length === 0 && providers[0]) providers[0].isDefault = true;
  return providers;
}

function checked(entry: unknown, path: string): OidcProvider {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new Error(`${path} must be an object`);
  }
  const provider = plainToInstance(ProviderEntry, entry);
  const errors = validateSync(provider, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}));
    throw new Error(`${path}: ${problems.join('; ')}`);
  }
  const url = new URL(provider.issuer);
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error(`${path}: issuer ${provider.issuer} must be https (http only on loopback)`);
  }
  return {
    name: provider.name,
    displayName: provider.displayName ?? provider.name,
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    scopes: provider.scopes ?? 'openid profile email',
    audience: provider.audience ?? provider.clientId,
    isDefault: provider.default ?? false,
    autoProvision: provider.autoProvision ?? true,
    organization: provider.organization,
    businessUnit: provider.businessUnit,
    roles: provider.roles ?? [],
    redirectUrls: provider.redirectUrls,
  };
}
