import { ApiKey } from './api-key.entity';
import { BusinessUnit } from './business-unit.entity';
import { OauthLogin } from './oauth-login.entity';
import { Organization } from './organization.entity';
import { Session } from './session.entity';
import { User } from './user.entity';

export { ApiKey, BusinessUnit, OauthLogin, Organization, Session, User };
export const AUTH_ENTITIES = [Organization, BusinessUnit, User, Session, ApiKey, OauthLogin];
