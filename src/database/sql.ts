/**
 * The two things every statement this server builds needs: identifiers quoted (they
 * come only from the entity registry, but a quote inside one must still not end it),
 * and values bound as parameters, never spliced into the text.
 */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** The parameters of one statement: `bind` returns the placeholder for a value. */
export class SqlParameters {
  readonly values: unknown[] = [];

  /** `$n`, or `$n::type` when PostgreSQL must be told the type (arrays, enums, CASE). */
  bind(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}
