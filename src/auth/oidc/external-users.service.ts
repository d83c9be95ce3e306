import { Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { Transactions } from '../../database/transactions.service';
import { OrganizationService } from '../../directory/organization.service';
import { UserRow } from '../../directory/user.repository';
import { UserService } from '../../directory/user.service';
import { ExternalIdentity } from './access-token.verifier';

/**
 * The user an OpenID identity signs in as: found by issuer and subject, or made on its
 * first sign-in (in the provider's organization and business unit) when the provider's
 * `autoProvision` allows. The same subject twice is the same user.
 */
@Injectable()
export class ExternalUsers {
  constructor(
    private readonly users: UserService,
    private readonly organizations: OrganizationService,
    private readonly transactions: Transactions,
  ) {}

  async userFor(external: ExternalIdentity): Promise<UserRow> {
    const { provider, subject } = external;
    let user = await this.users.findByOidcSubject(provider.issuer, subject);
    if (!user) {
      if (!provider.autoProvision) {
        throw new UnauthorizedException(
          `No user signs in as ${subject} of ${provider.name}, and that provider does not create users`,
        );
      }
      await this.provision(external);
      user = await this.users.findByOidcSubject(provider.issuer, subject);
    }
    if (!user?.active) throw new UnauthorizedException('This user may not sign in');
    return user;
  }

  /** Creates the user unless a racing sign-in of the same subject did first. */
  private provision(external: ExternalIdentity): Promise<void> {
    const { provider, subject } = external;
    return this.transactions.run(async (tx) => {
      const place = await this.organizations.findPlace(
        provider.organization,
        provider.businessUnit,
        tx,
      );
      if (!place) {
        throw new ServiceUnavailableException(
          `OpenID provider ${provider.name} lands new users in organization "${provider.organization}", ` +
            `business unit "${provider.businessUnit}", which do not exist`,
        );
      }
      const user = await this.users.createExternal(
        {
          // The preferred name, else the e-mail, else `<provider>-<subject>`.
          preferredName:
            external.preferredUsername ?? external.email ?? `${provider.name}-${subject}`,
          suffix: provider.name,
          fullName: external.name,
          ...place,
          issuer: provider.issuer,
          subject,
          actor: { via: `oidc ${provider.name}` },
        },
        tx,
      );
      if (!user) return;
      await this.users.grantRoles(user, provider.roles, tx).catch((error: Error) => {
        throw new ServiceUnavailableException(
          `OpenID provider ${provider.name} gives new users roles of "${provider.organization}": ${error.message}`,
        );
      });
    });
  }
}
