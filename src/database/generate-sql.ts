/** Where a repository method keeps the calls the SQL snapshot tool makes of it. */
export const GENERATE_SQL = 'atrium:generate-sql';

/** Stands for a transaction in a call's arguments: the tool passes its own. */
export const IN_TRANSACTION = Symbol('a transaction of the SQL snapshot tool');

export interface SqlSnapshotCall {
  /** The arguments, in order; IN_TRANSACTION for a Transaction. */
  params: unknown[];
  /** Tells two calls of one method apart in the snapshot. */
  name?: string;
}

/**
 * Has `npm run sql:generate` call the repository method with `params` on a throwaway
 * database and write the statements it sends to src/queries/<file>.sql, which CI checks
 * (`npm run sql:check`): a change to a repository's SQL shows in review as a diff of that
 * file. Every statement must run there, but for a violated constraint.
 */
export function GenerateSql(...calls: SqlSnapshotCall[]): MethodDecorator {
  return (target, propertyKey) => {
    const method = (target as Record<string | symbol, unknown>)[propertyKey] as object;
    Reflect.defineMetadata(GENERATE_SQL, calls.length ? calls : [{ params: [] }], method);
  };
}
