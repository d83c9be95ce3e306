export type AuthMethod = 'api-key' | 'session' | 'oidc';

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
  /** Present for cookie sessions: the session row and the token CSRF checks compare with. */
  session?: {
    key: number;
    csrfToken: string;
  };
}
