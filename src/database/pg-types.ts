import { types } from 'pg';

const INT8_OID = 20;
const DATE_OID = 1082;

/**
 * pg returns int8 as a string; keys must leave the API as JSON numbers. Values beyond
 * 2^53 stay strings so they are never silently rounded.
 */
export function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

types.setTypeParser(INT8_OID, parseInt8);
// A `date` is a calendar day: pg would turn it into local midnight, shifting it by the
// server's time zone. Keep the text `YYYY-MM-DD`.
types.setTypeParser(DATE_OID, (text: string) => text);
