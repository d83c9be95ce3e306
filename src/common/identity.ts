export type AuthMethod = 'api-key' | 'session' | 'oidc' | 'job';

/** Who is making the request; set once by the authentication guard. */
export interface Identity {
  userKey: number;
  userName: string;
  userFullName: string;
  organizationKey: number;
  businessUnitKey: number;
  isAdmin: boolean;
  locale: string;
  authMethod: AuthMethod;
  /**
   * How the request came in, as the change log names it: `api-key 12`, `oidc <provider>`;
   * when unset, the auth method.
   */
  via?: string;
  /** The request's id in the logs (X-Request-Id). */
  requestId?: string;
  /** Present for cookie sessions: the session row and the token CSRF checks compare with. */
  session?: {
    key: number;
    csrfToken: string;
  };
}
