import type { Transaction } from '../database/transaction';

/**
 * The transaction a call joins, a hook's or a workflow's (its writes and the caller's are
 * one), and the workflow method whose work it is, which hooks are told.
 */
export interface JoinedTransaction {
  transaction: Transaction;
  workflow?: string;
}
