import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { Diagnostic, linter, lintGutter } from '@codemirror/lint';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import { FetchColumn, fetchColumns, FetchPage, parseFetch, runFetch } from '../api/fetch';
import { ApiError } from '../api/http';
import { fetchLanguage } from './fetch-language';
import { cellText, curlOf, offsetOf, toCsv } from './fetch-text';

const EXAMPLE = 'FETCH account (name, country) ORDER BY name ASC LIMIT 20';

/** Where the server's parse found the text wrong, and what it said. */
interface Problem {
  detail: string;
  from: number;
}

/**
 * The server's parse of the text while one types: as the editor's diagnostic (marked at
 * its line and column) and to `report`, which shows its text under the editor.
 */
const serverLinter = (report: (problem: Problem | undefined) => void) =>
  linter(
    async (view): Promise<Diagnostic[]> => {
      const text = view.state.doc.toString();
      const { problem } = text.trim() ? await parseFetch(text) : {};
      if (!problem) {
        report(undefined);
        return [];
      }
      const at = problem.line ? offsetOf(text, problem.line, problem.column ?? 1) : 0;
      const from = Math.min(at, text.length);
      report({ detail: problem.detail, from });
      const to = Math.min(text.length, from + 1);
      return [{ from, to, severity: 'error', message: problem.detail }];
    },
    { delay: 300 },
  );

interface Result extends FetchPage {
  query: string;
  columns: FetchColumn[];
}

/** The FETCH playground: an editor checked by the server, run, and the rows. */
export function FetchPlayground() {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(undefined);
  const [result, setResult] = useState<Result | undefined>();
  const [tree, setTree] = useState<unknown>();
  const [error, setError] = useState<string | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();

  useEffect(() => {
    view.current = new EditorView({
      parent: host.current!,
      doc: EXAMPLE,
      extensions: [
        lineNumbers(),
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        fetchLanguage,
        syntaxHighlighting(defaultHighlightStyle),
        serverLinter(setProblem),
        lintGutter(),
        EditorView.contentAttributes.of({ 'aria-label': 'FETCH query' }),
      ],
    });
    return () => view.current?.destroy();
  }, []);

  const run = async () => {
    const query = view.current!.state.doc.toString();
    setError(undefined);
    try {
      const [columns, page, parsed] = await Promise.all([
        fetchColumns(query),
        runFetch(query, { count: true }),
        parseFetch(query),
      ]);
      setResult({ query, columns, ...page });
      setTree(parsed.tree);
    } catch (e) {
      setResult(undefined);
      setError((e as ApiError).message);
    }
  };
  const nextPage = async () => {
    if (!result?.next) return;
    try {
      const page = await runFetch(result.query, { cursor: result.next });
      setResult({ ...result, ...page, total: result.total });
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  /** The cursor to where the problem is, in the editor. */
  const showProblem = () => {
    if (!problem || !view.current) return;
    view.current.dispatch({ selection: { anchor: problem.from }, scrollIntoView: true });
    view.current.focus();
  };
  const names = result?.columns.map((c) => c.name) ?? [];
  // Made when asked for, not at every render (each object URL holds its rows until revoked).
  const exportCsv = () => {
    if (!result) return;
    const url = URL.createObjectURL(new Blob([toCsv(names, result.rows)], { type: 'text/csv' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'fetch.csv' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url)); // after the download has taken it
  };

  return (
    <section className="playground">
      <h2>FETCH</h2>
      <div ref={host} className="editor" />
      {problem && (
        <p className="fetch-problem" role="status">
          <button type="button" className="link" onClick={showProblem} title="Go there">
            {problem.detail}
          </button>
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void run()}>
          Run
        </button>
        {result && (
          <>
            <button type="button" onClick={exportCsv}>
              Export CSV
            </button>
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard.writeText(curlOf(location.origin, result.query))
              }
            >
              Copy as curl
            </button>
          </>
        )}
      </div>
      {error && <p role="alert">{error}</p>}
      {result && (
        <div className="result">
          <p>
            {result.rows.length} rows
            {result.total !== undefined && `, ${result.total} in all`}
            {result.timing && ` · ${result.timing}`}
          </p>
          <table>
            <thead>
              <tr>
                {result.columns.map((c) => (
                  <th key={c.name} scope="col" title={c.type}>
                    {c.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.rows.map((row, index) => (
                <tr key={index}>
                  {names.map((name) => (
                    <td
                      key={name}
                      className={`type-${result.columns.find((c) => c.name === name)?.type}`}
                    >
                      {cellText(row[name])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {result.next && (
            <button type="button" onClick={() => void nextPage()}>
              Next page
            </button>
          )}
        </div>
      )}
      {tree !== undefined && (
        <aside aria-label="Parsed tree">
          <pre>{JSON.stringify(tree, null, 2)}</pre>
        </aside>
      )}
    </section>
  );
}
