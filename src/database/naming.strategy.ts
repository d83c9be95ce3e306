import { DefaultNamingStrategy, NamingStrategyInterface } from 'typeorm';

export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/**
 * API property names are the column names (DESIGN.md), so TypeScript's camelCase
 * properties become snake_case columns, and a lookup relation `account` is stored in
 * `id_account`, the spec's name for lookups.
 */
export class AtriumNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override tableName(targetName: string, userSpecifiedName: string | undefined): string {
    return userSpecifiedName ?? toSnakeCase(targetName);
  }

  override columnName(
    propertyName: string,
    customName: string,
    embeddedPrefixes: string[],
  ): string {
    return customName || toSnakeCase([...embeddedPrefixes, propertyName].join('_'));
  }

  override joinColumnName(relationName: string): string {
    return `id_${toSnakeCase(relationName)}`;
  }
}
