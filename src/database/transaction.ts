import type { EntityManager } from 'typeorm';

const MANAGER = Symbol('the transaction’s EntityManager');

/**
 * A transaction under way, as the entity engine, a hook or a workflow hands it on: the
 * statements of a repository method given it run inside it. It runs nothing itself, so
 * code holding one can do only what the methods that take it say they do (each names what
 * it reaches past the caller's privileges).
 */
export class Transaction {
  private readonly [MANAGER]: EntityManager;

  constructor(manager: EntityManager) {
    this[MANAGER] = manager;
  }

  /** Whether it has not ended yet (a transaction may be handed on after its end). */
  get active(): boolean {
    return this[MANAGER].queryRunner?.isTransactionActive === true;
  }
}

/**
 * The connection `tx` runs on: for the repositories, the entity store and the FETCH
 * executor, the places that send SQL (eslint.config.mjs holds every other file to that).
 */
export function managerOf(tx: Transaction): EntityManager {
  return tx[MANAGER];
}
