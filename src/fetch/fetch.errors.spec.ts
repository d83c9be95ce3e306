import { FetchSyntaxError, positionOf } from './fetch.errors';
import { parseFetch } from './fetch.parser';

function errorOf(text: string): FetchSyntaxError {
  try {
    parseFetch(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FetchSyntaxError);
    const syntax = error as FetchSyntaxError;
    expect(syntax.detail).toBe(`line ${syntax.line}, column ${syntax.column}: ${syntax.reason}`);
    return syntax;
  }
  throw new Error(`parsed without error: ${text}`);
}

/** "line L, column C: reason" of the query's error. */
const detail = (text: string) => errorOf(text).detail;
const where = (text: string) => detail(`FETCH e (x) WHERE ${text}`);

describe('FETCH syntax errors', () => {
  describe('position', () => {
    it('names line and column, as in the issue’s example', () => {
      const error = errorOf('FETCH invoice\n(COUNT(total FROM x))');
      expect(error).toMatchObject({ line: 2, column: 14 });
      expect(error.detail).toBe('line 2, column 14: expected ")" but found "FROM"');
    });

    it('counts \\r\\n, \\r and \\n as line ends and characters (not UTF-16 units) as columns', () => {
      expect(positionOf('a\r\nb\rc\nd', 7)).toEqual({ line: 4, column: 1 });
      expect(detail("FETCH e (x) WHERE a = '😀' b")).toMatch(/^line 1, column 27: /);
    });
  });

  describe('expected … but found …', () => {
    it('names the one token expected', () => {
      expect(detail('SELECT a')).toBe('line 1, column 1: expected "FETCH" but found "SELECT"');
      expect(detail('FETCH e (x) GROUP x')).toBe('line 1, column 19: expected "BY" but found "x"');
    });

    it('lists everything the grammar accepts there', () => {
      expect(detail('FETCH e (x FROM y)')).toBe(
        'line 1, column 12: expected "AS", "," or ")" but found "FROM"',
      );
      expect(detail('FETCH e (x) { l SIDEWAYS TO t }')).toBe(
        'line 1, column 17: expected "AS", "INNER", "OUTER", "EXISTS", "NOT EXISTS", "FROM" or "TO" but found "SIDEWAYS"',
      );
      expect(detail('FETCH e (x) { l TO t (y) x }')).toBe(
        'line 1, column 26: expected "{", "WHERE", "ORDER BY", "OFFSET", "LIMIT" or "}" but found "x"',
      );
    });

    it('reports trailing garbage with the clauses that could have come', () => {
      expect(detail('FETCH e (x) LIMIT 1 garbage')).toBe(
        'line 1, column 21: expected "OFFSET", ";" or end of query but found "garbage"',
      );
      expect(detail('FETCH e (x) WHERE a = 1 b')).toBe(
        'line 1, column 25: expected "AND", "OR", "GROUP BY", "ORDER BY", "OFFSET", "LIMIT", ";" or end of query but found "b"',
      );
      expect(detail('FETCH e (x); ;')).toBe(
        'line 1, column 14: expected end of query but found ";"',
      );
    });

    it('suggests the keyword a misspelt word is closest to', () => {
      expect(detail('FETCH e (x) LIMT 5')).toBe(
        'line 1, column 13: expected "{", "WHERE", "GROUP BY", "ORDER BY", "OFFSET", "LIMIT", ";" or end of query but found "LIMT" (did you mean "LIMIT"?)',
      );
      expect(detail('FETCH e (x) ORDR BY x')).toMatch(
        /found "ORDR" \(did you mean "ORDER BY"\?\)$/,
      );
      expect(detail('FETCH e (x) banana')).not.toMatch(/did you mean/);
    });

    it('says when the query ends too early', () => {
      expect(detail('FETCH e (x')).toBe(
        'line 1, column 11: expected "AS", "," or ")" but found end of query',
      );
      expect(detail('FETCH')).toBe(
        'line 1, column 6: expected an entity name but found end of query',
      );
    });

    it('shows strings as written and cuts long tokens', () => {
      expect(detail("FETCH e ('x')")).toBe(
        'line 1, column 10: expected "*" or a column but found \'x\'',
      );
      expect(detail(`FETCH e (x) ${'y'.repeat(60)}`)).toContain(`found "${'y'.repeat(40)}…"`);
    });

    it('describes what a condition accepts', () => {
      expect(where('a b')).toBe(
        'line 1, column 21: expected an operator (=, <>, <, <=, >, >=, LIKE, NOT, IN, BETWEEN, IS, BEGINS, ENDS, CONTAINS, ON) but found "b"',
      );
      expect(where('a = )')).toBe('line 1, column 23: expected a value but found ")"');
      expect(where('= 1')).toBe('line 1, column 19: expected "(" or a column but found "="');
      expect(where('a NOT = 1')).toBe(
        'line 1, column 25: expected "LIKE", "IN" or "BETWEEN" but found "="',
      );
      expect(where('a LIKE 5')).toBe('line 1, column 26: expected a string but found "5"');
      expect(where('a BEGINS 5')).toBe(
        'line 1, column 28: expected "WITH" or a string but found "5"',
      );
      expect(where('a IS 5')).toBe(
        'line 1, column 24: expected "NOT", "NULL", "TODAY", "YESTERDAY", "TOMORROW", "THIS", "LAST", "NEXT" or "OLDER THAN" but found "5"',
      );
      expect(where('a IS LAST DAYS')).toBe(
        'line 1, column 29: expected a non-negative integer, "WEEK", "MONTH" or "YEAR" but found "DAYS"',
      );
      expect(where('a IS LAST 3 FORTNIGHTS')).toBe(
        'line 1, column 31: expected a unit (MINUTES, HOURS, DAYS, WEEKS, MONTHS, YEARS) but found "FORTNIGHTS"',
      );
      expect(where("a ON OR LATER '2026-01-01'")).toBe(
        'line 1, column 27: expected "AFTER" or "BEFORE" but found "LATER" (did you mean "AFTER"?)',
      );
      expect(where('a IN 1')).toBe('line 1, column 24: expected "(" but found "1"');
      expect(where('a BETWEEN 1 OR 2')).toBe('line 1, column 31: expected "AND" but found "OR"');
      expect(where('NOT a = 1')).toMatch(/^line 1, column 23: expected an operator/);
    });
  });

  describe('values and integers', () => {
    it('refuses a LIMIT, OFFSET or count that is not a non-negative integer', () => {
      expect(detail('FETCH e (x) LIMIT -1')).toBe(
        'line 1, column 19: expected a non-negative integer but found "-1"',
      );
      expect(detail('FETCH e (x) OFFSET 1.5')).toBe(
        'line 1, column 20: expected a non-negative integer but found "1.5"',
      );
      expect(detail('FETCH e (x) LIMIT 99999999999999999999')).toBe(
        'line 1, column 19: expected an integer below 2^53 but found "99999999999999999999"',
      );
      expect(detail('FETCH e (x) LIMIT ten')).toBe(
        'line 1, column 19: expected a non-negative integer but found "ten"',
      );
      expect(where('d IS LAST -2 DAYS')).toBe(
        'line 1, column 29: expected a non-negative integer but found "-2"',
      );
    });

    it('refuses a LIMIT or OFFSET given twice', () => {
      expect(detail('FETCH e (x) LIMIT 1 LIMIT 2')).toBe(
        'line 1, column 21: expected "OFFSET", ";" or end of query but found "LIMIT"',
      );
    });

    it('refuses a date that is not a calendar date', () => {
      expect(where("d ON '2026-02-30'")).toBe(
        "line 1, column 24: expected a date 'YYYY-MM-DD' but found '2026-02-30'",
      );
      expect(where("d ON OR BEFORE '31/01/2026'")).toMatch(/^line 1, column 34: expected a date/);
      expect(where('d ON 5')).toBe(
        'line 1, column 24: expected "OR" or a date \'YYYY-MM-DD\' but found "5"',
      );
    });

    it('lets CURRENT_USER and friends only be compared with = or <>', () => {
      expect(where('id_user < CURRENT_USER')).toBe(
        'line 1, column 29: CURRENT_USER can only be compared with = or <>',
      );
      expect(where('id_user IN (1, current_organization)')).toBe(
        'line 1, column 34: current_organization can only be compared with = or <>',
      );
    });
  });

  describe('lexical errors', () => {
    it('reports an unterminated string where it starts', () => {
      expect(detail("FETCH e (x)\nWHERE a = 'abc")).toBe(
        'line 2, column 11: unterminated string: a closing quote is missing',
      );
    });

    it('reports an unexpected character', () => {
      expect(detail('FETCH e (x) WHERE a = "b"')).toBe(
        'line 1, column 23: unexpected character "\\""',
      );
      expect(detail('FETCH e (x) WHERE a = 1 # 2')).toBe(
        'line 1, column 25: unexpected character "#"',
      );
    });

    it('reports the earliest error: a syntax error before a bad character wins', () => {
      expect(detail("FETCH e (x y) WHERE a = 'open")).toBe(
        'line 1, column 12: expected "AS", "," or ")" but found "y"',
      );
    });
  });

  describe('empty queries', () => {
    it.each(['', '   \n\t', '-- nothing but a comment\n-- and another'])(
      'calls %j empty, at line 1, column 1',
      (text) => {
        expect(detail(text)).toBe('line 1, column 1: the query is empty');
      },
    );
  });

  describe('the largest queries an attacker may send (64 KiB)', () => {
    const LIMIT = 64 * 1024;
    const fill = (head: string, part: (i: number) => string, tail: string, separator = ', ') => {
      const parts: string[] = [];
      let length = head.length + tail.length;
      for (let i = 0; length < LIMIT - 40; i++) {
        parts.push(part(i));
        length += parts[i].length + separator.length;
      }
      return head + parts.join(separator) + tail;
    };
    const worstCases: [string, string][] = [
      [
        'GROUP BY an unknown long name among thousands of items',
        fill('FETCH e (', (i) => `a${i}`, `) GROUP BY ${'z'.repeat(LIMIT / 3)}`),
      ],
      ['one huge identifier', `FETCH ${'e'.repeat(LIMIT - 20)} (x)`],
      ['a huge IN list', fill('FETCH e (x) WHERE a IN (', () => '1', ')')],
      ['thousands of conditions', fill('FETCH e (x) WHERE ', (i) => `a${i} = ${i}`, '', ' AND ')],
      [
        'thousands of aliases, the last one taken twice',
        fill('FETCH e (', (i) => `a AS x${i % 5000}`, ')'),
      ],
      ['a misspelt keyword the size of the query', `FETCH e (x) ${'L'.repeat(LIMIT - 20)} 1`],
    ];

    it.each(worstCases)('answers %s in bounded time', (_, text) => {
      expect(text.length).toBeLessThanOrEqual(LIMIT);
      const started = performance.now();
      try {
        parseFetch(text);
      } catch (error) {
        expect(error).toBeInstanceOf(FetchSyntaxError);
      }
      expect(performance.now() - started).toBeLessThan(1000);
    });
  });

  describe('nesting', () => {
    const parentheses = (depth: number) =>
      `FETCH e (x) WHERE ${'('.repeat(depth)}a = 1${')'.repeat(depth)}`;
    const links = (depth: number) =>
      `FETCH e (x) ${Array.from({ length: depth }, (_, i) => `{ l${i} TO t `).join('')}${'}'.repeat(depth)}`;

    it('accepts 32 levels of parentheses and refuses 33', () => {
      expect(() => parseFetch(parentheses(32))).not.toThrow();
      expect(detail(parentheses(33))).toBe(
        'line 1, column 51: parentheses are nested deeper than 32',
      );
    });

    it('accepts 32 alternating AND/OR levels', () => {
      let text = 'a = 0';
      for (let i = 1; i <= 32; i++) text = `a = ${i} ${i % 2 ? 'AND' : 'OR'} (${text})`;
      expect(() => parseFetch(`FETCH e (x) WHERE ${text}`)).not.toThrow();
    });

    it('accepts links 10 deep and refuses 11', () => {
      expect(() => parseFetch(links(10))).not.toThrow();
      expect(detail(links(11))).toBe('line 1, column 113: links are nested deeper than 10');
    });

    it('fails fast on deep nesting far beyond the limits', () => {
      const started = performance.now();
      expect(detail(parentheses(100_000))).toMatch(/nested deeper than 32/);
      expect(detail(links(100_000))).toMatch(/nested deeper than 10/);
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });

  describe('tree rules, placed at the item at fault', () => {
    it('refuses an ungrouped item beside an aggregate', () => {
      expect(detail('FETCH e (status, SUM(total))')).toBe(
        'line 1, column 10: "status" must be in GROUP BY or aggregated, as the query has an aggregate',
      );
      expect(detail('FETCH e (COUNT(*)) { l TO t (name) }')).toBe(
        'line 1, column 30: "l.name" must be in GROUP BY or aggregated, as the query has an aggregate',
      );
      expect(detail('FETCH e (*) { l TO t (COUNT(*) AS n) }')).toBe(
        'line 1, column 10: * cannot be selected with an aggregate',
      );
    });

    it('refuses a GROUP BY name that is not a selected item', () => {
      expect(detail('FETCH e (status) GROUP BY stat')).toBe(
        'line 1, column 27: "stat" in GROUP BY is not a selected column or alias (did you mean "status"?)',
      );
      expect(detail('FETCH e (status) GROUP BY total')).toBe(
        'line 1, column 27: "total" in GROUP BY is not a selected column or alias',
      );
      expect(detail('FETCH e (status AS s, COUNT(*)) GROUP BY status')).toBe(
        'line 1, column 42: "status" is selected as "s": GROUP BY "s"',
      );
      expect(detail('FETCH e (COUNT(*)) { l TO t (name) } GROUP BY name')).toBe(
        'line 1, column 47: "name" is a linked column: give it an alias (AS …) and GROUP BY that',
      );
      expect(detail('FETCH e (SUM(total) AS s) GROUP BY s')).toBe(
        'line 1, column 36: cannot GROUP BY "s": it is an aggregate',
      );
    });

    it('refuses an alias used twice, and two items with one result key', () => {
      expect(detail('FETCH e (a AS x, b AS x)')).toBe('line 1, column 23: alias "x" is used twice');
      expect(detail('FETCH e (name, name)')).toBe(
        'line 1, column 16: two selected items are both named "name" in the result: give one an alias',
      );
      expect(detail('FETCH e (x) { l AS k TO t } { m AS k TO t }')).toBe(
        'line 1, column 36: link alias "k" is used twice',
      );
      expect(detail('FETCH e (x) { c TO t (n) } { c FROM f TO key (n) }')).toBe(
        'line 1, column 28: two links are named "c": give one an alias (AS …)',
      );
      expect(detail('FETCH e (x) { c TO t (n) } { d AS c TO u (m) }')).toBe(
        'line 1, column 35: link alias "c" is used twice',
      );
    });

    it('refuses a qualified column that names no link, or an EXISTS link from outside', () => {
      expect(detail('FETCH e (x, zz.name) { account AS acc TO id_account }')).toBe(
        'line 1, column 13: "zz" in "zz.name" names no link of the query',
      );
      expect(detail('FETCH e (x) { account AS acc TO t } WHERE ac.name = 1')).toBe(
        'line 1, column 43: "ac" in "ac.name" names no link of the query (did you mean "acc"?)',
      );
      expect(detail('FETCH e (l.x) { t AS l EXISTS TO k }')).toBe(
        'line 1, column 10: "l.x" is a column of an EXISTS link, which joins no rows: use it inside that link',
      );
      expect(detail('FETCH e (x) { t AS l EXISTS TO k WHERE l.y = 1 } WHERE l.y = 2')).toBe(
        'line 1, column 56: "l.y" is a column of an EXISTS link, which joins no rows: use it inside that link',
      );
    });

    it('refuses a select list in an EXISTS link or in a link inside one', () => {
      expect(detail('FETCH e (x) { l EXISTS TO t (y) }')).toBe(
        'line 1, column 29: an EXISTS link selects no columns: remove this select list',
      );
      expect(detail('FETCH e (x) { l NOT EXISTS TO t { m TO u (y) } }')).toBe(
        'line 1, column 42: a NOT EXISTS link selects no columns: remove this select list',
      );
    });

    it('reports the finding nearest the start', () => {
      expect(detail('FETCH e (a AS x, b AS x, c AS y, d AS y, SUM(z))')).toBe(
        'line 1, column 10: "x" must be in GROUP BY or aggregated, as the query has an aggregate',
      );
    });
  });
});
