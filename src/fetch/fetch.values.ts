import { PropertyDefinition } from '../model/entity-type';
import { coerceValue } from '../model/property-value';
import { FetchQueryError } from './fetch.schema';
import { Scalar } from './fetch.tree';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;

/**
 * A condition's value as the column's type wants it bound, or a 400 naming the column:
 * `total = 'abc'` is refused here, not by PostgreSQL. The entity API's rules apply, less
 * what only matters to a stored value (lengths, precision): a comparison with a longer
 * string or a finer decimal is a fair question. Decimals and big integers may come as
 * strings, as the API writes them; a date-time may be a date or lack its offset (UTC).
 */
export function conditionValue(
  property: PropertyDefinition,
  value: Scalar,
  column: string,
): unknown {
  if (value === null) throw new FetchQueryError(`${column}: compare with NULL using IS NULL`);
  if (property.type === 'json') {
    throw new FetchQueryError(`${column} holds JSON: only IS NULL and IS NOT NULL apply to it`);
  }
  const coerced = coerceValue(relaxedDefinition(property), asDateTime(property, value));
  if ('problem' in coerced) {
    throw new FetchQueryError(
      `${column}: ${JSON.stringify(value)} does not fit: ${coerced.problem}`,
    );
  }
  return coerced.value;
}

/** Made once per column: an IN list checks each of its values against it. */
const relaxedDefinitions = new WeakMap<PropertyDefinition, PropertyDefinition>();

function relaxedDefinition(property: PropertyDefinition): PropertyDefinition {
  let relaxed = relaxedDefinitions.get(property);
  if (!relaxed) {
    relaxed = {
      ...property,
      nullable: false,
      length: undefined,
      precision: undefined,
      scale: undefined,
    };
    relaxedDefinitions.set(property, relaxed);
  }
  return relaxed;
}

/** `'2026-01-31'` against a date-time is its first instant in UTC. */
function asDateTime(property: PropertyDefinition, value: Scalar): Scalar {
  if (property.type !== 'datetime' || typeof value !== 'string') return value;
  if (DATE_ONLY.test(value)) return `${value}T00:00:00Z`;
  return WITHOUT_OFFSET.test(value) ? `${value}Z` : value;
}
