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
    /** The token that replaced an old one on this request: sent back as the cookie. */
    rotatedToken?: string;
    /**
     * A session made on this request (the refresh filter's): its cookies, and the
     * provider's renewed refresh token, are sent back.
     */
    issued?: {
      token: string;
      csrfToken: string;
      locale: string;
      refresh?: { provider: string; sealedToken: string };
    };
  };
}
