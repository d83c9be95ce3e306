/**
 * Numbers stay numbers in the tree only when JSON carries them exactly: an integer
 * literal within ±(2^53 − 1), a decimal literal whose digits survive a double. Others
 * (a bigint key, a decimal with 20 digits) become strings holding their digits, as
 * FETCH.md §2 does for results, so no value is ever rounded behind the caller's back.
 */
export function literalValue(literal: string): number | string {
  const value = Number(literal);
  const exact = literal.includes('.')
    ? canonical(literal) === formatPlain(value)
    : Number.isSafeInteger(value);
  if (!exact) return canonical(literal);
  return value === 0 ? 0 : value; // no -0: it would print as 0 and compare unequal
}

/** A number as FETCH text: plain digits, never an exponent, which the lexer would refuse. */
export function formatNumber(value: number): string {
  const plain = formatPlain(value);
  // An integer beyond 2^53 written without a fraction would read back as a string.
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? `${plain}.0` : plain;
}

/** Sign, integer digits without leading zeros, fraction without trailing zeros. */
function canonical(literal: string): string {
  const negative = literal.startsWith('-');
  const [whole, fraction = ''] = (negative ? literal.slice(1) : literal).split('.');
  const int = whole.replace(/^0+(?=\d)/, '');
  const frac = fraction.replace(/0+$/, '');
  if (int === '0' && frac === '') return '0';
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** The shortest digits that read back as `value` (JavaScript's own), without exponent. */
function formatPlain(value: number): string {
  if (value === 0) return '0';
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const sign = value < 0 ? '-' : '';
  const [int, frac = ''] = text.slice(sign.length, e).split('.');
  const digits = int + frac;
  const point = int.length + Number(text.slice(e + 1));
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
