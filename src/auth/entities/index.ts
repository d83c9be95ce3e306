import { ApiKey } from './api-key.entity';
import { BusinessUnit } from './business-unit.entity';
import { Organization } from './organization.entity';
import { Session } from './session.entity';
import { User } from './user.entity';

export { ApiKey, BusinessUnit, Organization, Session, User };
export const AUTH_ENTITIES = [Organization, BusinessUnit, User, Session, ApiKey];
