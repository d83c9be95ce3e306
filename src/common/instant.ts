/**
 * An ISO 8601 instant: a date, or a date and a time with an offset (`Z`, `+02:00`); a
 * time without an offset names no instant. Undefined when `text` is none such.
 */
export function parseInstant(text: string): Date | undefined {
  if (!INSTANT.test(text)) return undefined;
  // Date rolls 30 February over into March; a day the month lacks is no date.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const INSTANT =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d))?$/;
