import { ApiKey } from './api-key.entity';
import { OauthLogin } from './oauth-login.entity';
import { Session } from './session.entity';

export { ApiKey, OauthLogin, Session };
export const AUTH_ENTITIES = [Session, ApiKey, OauthLogin];
