import { StreamLanguage, StringStream } from '@codemirror/language';

/** FETCH.md's keywords (not reserved: they are highlighted where they stand). */
const KEYWORDS = new Set(
  (
    'FETCH AS WHERE AND OR NOT IN IS NULL LIKE BEGINS ENDS CONTAINS WITH ON AFTER BEFORE ' +
    'ORDER BY ASC DESC LIMIT OFFSET GROUP FROM TO INNER OUTER EXISTS COUNT SUM AVG MIN MAX ' +
    'DISTINCT BETWEEN TRUE FALSE'
  ).split(' '),
);

/** FETCH for CodeMirror: keywords, strings (with '' inside), numbers and operators. */
export const fetchLanguage = StreamLanguage.define<object>({
  name: 'fetch',
  token(stream: StringStream): string | null {
    if (stream.eatSpace()) return null;
    if (stream.match(/^'(?:[^']|'')*'?/)) return 'string';
    if (stream.match(/^-?\d+(\.\d+)?/)) return 'number';
    if (stream.match(/^[A-Za-z_][\w]*/)) {
      return KEYWORDS.has(stream.current().toUpperCase()) ? 'keyword' : 'variableName';
    }
    if (stream.match(/^(<=|>=|<>|!=|[=<>])/)) return 'operator';
    stream.next();
    return 'punctuation';
  },
});
