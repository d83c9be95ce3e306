import { Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IDENTITY_USER_COLUMNS, IdentityUser } from '../identity.mapper';
import { grantRoles } from '../../access/role-grants';
import { nextKey } from '../user.service';
import { ExternalIdentity } from './access-token.verifier';

const MAX_USER_NAME = 100;

export interface ExternalUser extends IdentityUser {
  active: boolean;
  locale: string;
}

/**
 * The user an OpenID identity signs in as: found by issuer and subject, or made on its
 * first sign-in (in the provider's organization and business unit) when the provider's
 * `autoProvision` allows. The same subject twice is the same user.
 */
@Injectable()
export class ExternalUsers {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async userFor(external: ExternalIdentity): Promise<ExternalUser> {
    const { provider, subject } = external;
    let user = await this.find(provider.issuer, subject);
    if (!user) {
      if (!provider.autoProvision) {
        throw new UnauthorizedException(
          `No user signs in as ${subject} of ${provider.name}, and that provider does not create users`,
        );
      }
      await this.provision(external);
      user = await this.find(provider.issuer, subject);
    }
    if (!user?.active) throw new UnauthorizedException('This user may not sign in');
    return user;
  }

  private async find(issuer: string, subject: string): Promise<ExternalUser | undefined> {
    const [row]: (ExternalUser | undefined)[] = await this.dataSource.query(
      `SELECT ${IDENTITY_USER_COLUMNS}, u.active, u.locale FROM "user" u
        WHERE u.oidc_issuer = $1 AND u.oidc_subject = $2`,
      [issuer, subject],
    );
    return row;
  }

  /** Inserts the user unless a racing sign-in of the same subject did first. */
  private provision(external: ExternalIdentity): Promise<void> {
    const { provider, subject } = external;
    return this.dataSource.transaction(async (tx) => {
      const [place]: { organization: number; unit: number }[] = await tx.query(
        `SELECT o.key AS organization, b.key AS unit FROM organization o
           JOIN business_unit b ON b.id_organization = o.key AND b.name = $2
          WHERE o.name = $1`,
        [provider.organization, provider.businessUnit],
      );
      if (!place) {
        throw new ServiceUnavailableException(
          `OpenID provider ${provider.name} lands new users in organization "${provider.organization}", ` +
            `business unit "${provider.businessUnit}", which do not exist`,
        );
      }
      const key = await nextKey(tx, 'user');
      const userName = await this.freeUserName(tx, external);
      const inserted: { key: number }[] = await tx.query(
        `INSERT INTO "user" (key, user_name, full_name, id_organization, id_business_unit, id_user,
                             oidc_issuer, oidc_subject)
         VALUES ($1, $2, $3, $4, $5, $1, $6, $7)
         ON CONFLICT (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL DO NOTHING
         RETURNING key`,
        [
          key,
          userName,
          (external.name ?? userName).slice(0, 200),
          place.organization,
          place.unit,
          provider.issuer,
          subject,
        ],
      );
      if (inserted.length === 0) return;
      const user = {
        key,
        idOrganization: place.organization,
        idBusinessUnit: place.unit,
        idUser: key,
      };
      await grantRoles(tx, user, provider.roles).catch((error: Error) => {
        throw new ServiceUnavailableException(
          `OpenID provider ${provider.name} gives new users roles of "${provider.organization}": ${error.message}`,
        );
      });
    });
  }

  /** The preferred name, else the e-mail, else `<provider>-<subject>`; suffixed if taken. */
  private async freeUserName(tx: EntityManager, external: ExternalIdentity): Promise<string> {
    const base = (
      external.preferredUsername ??
      external.email ??
      `${external.provider.name}-${external.subject}`
    ).slice(0, MAX_USER_NAME - 12);
    for (let n = 0; ; n++) {
      const candidate = n === 0 ? base : `${base}-${external.provider.name.slice(0, 6)}${n}`;
      const taken: unknown[] = await tx.query(`SELECT 1 FROM "user" WHERE user_name = $1`, [
        candidate,
      ]);
      if (taken.length === 0) return candidate;
    }
  }
}
