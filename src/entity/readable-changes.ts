import type { AccessScope } from '../access/access.scope';
import type { EntityType } from '../model/entity-type';

/**
 * A change-log entry's `{property: {old, new}}` as a reader may see it: the secured
 * properties it may not read left out, and those the model no longer has (they may have
 * been secured); `withheld` says that something was.
 */
export function readableChanges<T>(
  scope: AccessScope,
  type: EntityType | undefined,
  changes: Record<string, T>,
): { changes: Record<string, T>; withheld: boolean } {
  let withheld = false;
  const readable: Record<string, T> = {};
  for (const [name, change] of Object.entries(changes)) {
    const property = type?.properties.get(name);
    if (!type || !property || !scope.canRead(type, property)) withheld = true;
    else readable[name] = change;
  }
  return { changes: readable, withheld };
}
