import { appEntities } from './app.module';
import { Role } from './directory/entities/role.entity';
import { Account } from './demo/entities/account.entity';
import { Session } from './auth/entities/session.entity';
import { StoredFile } from './storage/entities/stored-file.entity';

describe('appEntities', () => {
  it('lists the entities every module of the app registers, once each', () => {
    const entities = appEntities();
    expect(entities).toEqual(expect.arrayContaining([Role, Account, Session, StoredFile]));
    expect(new Set(entities).size).toBe(entities.length);
  });
});
