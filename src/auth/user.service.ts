import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { grantRoles } from '../access/role-grants';
import { User } from './entities';
import { hashPassword, UNKNOWN_USER_HASH, verifyPassword } from './password-hasher';

export const MIN_PASSWORD_LENGTH = 8;

export interface NewUser {
  userName: string;
  fullName?: string;
  password: string;
  isAdmin?: boolean;
  organizationKey: number;
  businessUnitKey: number;
  /** The user recorded as creator; a first user creates itself. */
  createdBy?: number;
  /** Names of roles of the organization the user holds. */
  roles?: string[];
}

@Injectable()
export class UserService {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  /**
   * The active user with that name and password, or undefined. An unknown user is
   * checked against a dummy hash so it takes as long as a wrong password.
   */
  async verifyCredentials(userName: string, password: string): Promise<User | undefined> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('u.userName = :userName', { userName })
      .getOne();
    const matches = await verifyPassword(password, user?.passwordHash ?? UNKNOWN_USER_HASH);
    return matches && user?.active ? user : undefined;
  }

  async changePassword(userKey: number, current: string, next: string): Promise<void> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('u.key = :userKey', { userKey })
      .getOne();
    if (!user?.passwordHash || !(await verifyPassword(current, user.passwordHash))) {
      throw new UnauthorizedException('The current password is wrong');
    }
    await this.users.update({ key: userKey }, { passwordHash: await hashPassword(next) });
  }

  findByName(userName: string): Promise<User | null> {
    return this.users.findOneBy({ userName });
  }

  /** Creates a user inside the caller's transaction, owned by its organization. */
  async create(manager: EntityManager, input: NewUser): Promise<User> {
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      throw new BadRequestException(
        `The password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      );
    }
    const key = await nextKey(manager, 'user');
    const user = await manager.getRepository(User).save({
      key,
      userName: input.userName,
      fullName: input.fullName ?? input.userName,
      passwordHash: await hashPassword(input.password),
      isAdmin: input.isAdmin ?? false,
      idOrganization: input.organizationKey,
      idBusinessUnit: input.businessUnitKey,
      idUser: input.createdBy ?? key,
    });
    await grantRoles(manager, user, input.roles ?? []);
    return user;
  }
}

/** Draws a key ahead of the insert, for rows that must reference each other. */
export async function nextKey(manager: EntityManager, table: string): Promise<number> {
  const [row] = await manager.query<{ key: number }[]>(
    `SELECT nextval(pg_get_serial_sequence($1, 'key')) AS key`,
    [`"${table}"`],
  );
  return row.key;
}
