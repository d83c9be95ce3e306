import { Injectable } from '@nestjs/common';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { Identity } from '../common/identity';
import { Transactions } from '../database/transactions.service';
import { EntityService } from '../entity/entity.service';
import { JoinedTransaction } from '../entity/joined-transaction';
import { FetchService } from '../fetch/fetch.service';
import { JobQueue } from '../queue/job-queue.service';
import { ScopedData } from './scoped-data';

/** Hands application code its ScopedData: in a transaction under way, or in a new one. */
@Injectable()
export class DataService {
  constructor(
    private readonly entities: EntityService,
    private readonly fetchService: FetchService,
    private readonly transactions: Transactions,
    private readonly access: AccessService,
    private readonly jobs: JobQueue,
  ) {}

  /** The scoped data API inside `joined`'s transaction (a hook's), as `scope`'s caller. */
  within(scope: AccessScope, joined: JoinedTransaction): ScopedData {
    return new ScopedData(
      this.entities,
      this.fetchService,
      this.transactions,
      this.jobs,
      scope,
      joined,
    );
  }

  /**
   * Runs `work` in a new transaction with the scoped data API as `identity`: committed
   * when it resolves, rolled back when it throws. `workflow` names the workflow method
   * whose work it is, which the hooks it runs are told.
   */
  async transaction<T>(
    identity: Identity,
    work: (data: ScopedData) => Promise<T>,
    workflow?: string,
  ): Promise<T> {
    const scope = await this.access.scopeOf(identity);
    return this.transactions.run((transaction) =>
      work(this.within(scope, { transaction, workflow })),
    );
  }
}
