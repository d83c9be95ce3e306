import { call, forgetCsrfToken, getJson, jsonBody } from './http';

/** GET /auth (spec 2.1): the user fields only when signed in. */
export interface ServerInfo {
  name: string;
  version: string;
  userName?: string;
  userFullName?: string;
}

/** GET /oauth: an OpenID provider one may sign in with. */
export interface OauthProvider {
  name: string;
  displayName: string;
  default: boolean;
  loginUrl: string;
}

export const serverInfo = () => getJson<ServerInfo>('/auth');

export const signIn = (user: string, password: string) =>
  getJson<ServerInfo>('/auth', jsonBody('POST', { user, password }));

export async function signOut(): Promise<void> {
  await call('/auth?logout=1', { method: 'HEAD' });
  forgetCsrfToken();
}

export const oauthProviders = () => getJson<OauthProvider[]>('/oauth');

/** Where a provider's button leads: its login, then back to this page. */
export function providerLoginUrl(provider: OauthProvider, returnTo: string): string {
  const url = new URL(provider.loginUrl, returnTo);
  url.searchParams.set('redirectUrl', returnTo);
  return url.href;
}

/** POST /auth/password: the form of spec 4.1. */
export async function changePassword(current: string, next: string, confirm: string) {
  await call('/auth/password', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      'current-password': current,
      'set-password': next,
      'confirm-password': confirm,
    }),
  });
}
