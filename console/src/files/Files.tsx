import { FormEvent, useCallback, useState } from 'react';
import { fetchRows, Row } from '../api/fetch';
import { ApiError } from '../api/http';
import { downloadUrl, fileVersions, FileVersion, uploadFile } from '../api/storage';
import { Alert } from '../ui/Alert';
import { useRead } from '../ui/use-read';

const FILES_QUERY =
  'FETCH file (key, name, content_type, latest_version, date_updated) ORDER BY date_updated DESC LIMIT 100';
const readFiles = () => fetchRows(FILES_QUERY);

/** Stored files: upload (with its progress), the versions of one, and their downloads. */
export function Files() {
  const { value: files, error, reload: list } = useRead<Row[]>(readFiles, []);
  const [chosen, setChosen] = useState<number>();
  const uploaded = (version: FileVersion) => {
    list();
    setChosen(version.id);
  };

  return (
    <section>
      <h2>Files</h2>
      <Upload title="Upload a file" onUploaded={uploaded} />
      <Alert message={error} />
      <table aria-label="Files">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Versions</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={String(file.key)} aria-selected={file.key === chosen}>
              <td>
                <button type="button" className="link" onClick={() => setChosen(Number(file.key))}>
                  {String(file.name)}
                </button>
              </td>
              <td>{String(file.content_type)}</td>
              <td className="type-integer">{String(file.latest_version)}</td>
              <td>{new Date(String(file.date_updated)).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {chosen !== undefined && <Versions key={chosen} id={chosen} onUploaded={uploaded} />}
    </section>
  );
}

/** One file's versions, newest first, each to download; a form for the next one. */
function Versions({ id, onUploaded }: { id: number; onUploaded: (v: FileVersion) => void }) {
  const read = useCallback(() => fileVersions(id).then((all) => [...all].reverse()), [id]);
  const { value: versions, error, reload: load } = useRead<FileVersion[]>(read, []);
  const name = versions[0]?.name ?? `file ${id}`;
  return (
    <section aria-label={`Versions of ${name}`}>
      <h3>Versions of {name}</h3>
      <Alert message={error} />
      <table aria-label="Versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Name</th>
            <th scope="col">Size</th>
            <th scope="col">Stored</th>
            <th scope="col">
              <span className="visually-hidden">Download</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((version) => (
            <tr key={version.version}>
              <td className="type-integer">{version.version}</td>
              <td>{version.name}</td>
              <td className="type-integer">{formatSize(version.size)}</td>
              <td>{new Date(version.dateCreated).toLocaleString()}</td>
              <td>
                <a href={downloadUrl(id, version.version)} download>
                  Download version {version.version}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Upload
        title="Upload a new version"
        id={id}
        onUploaded={(version) => {
          load();
          onUploaded(version);
        }}
      />
    </section>
  );
}

/** A file input, its upload's progress bar, and what the server said. */
function Upload({
  title,
  id,
  onUploaded,
}: {
  title: string;
  id?: number;
  onUploaded: (version: FileVersion) => void;
}) {
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const file = (form.elements.namedItem('file') as HTMLInputElement).files?.[0];
    if (!file) return setError('Choose a file first');
    setError(undefined);
    setProgress(0);
    uploadFile(file, { id, onProgress: setProgress })
      .then((version) => {
        form.reset();
        onUploaded(version);
      })
      .catch((e: ApiError) => setError(e.message))
      .finally(() => setProgress(undefined));
  };
  return (
    <form className="upload" onSubmit={submit}>
      <fieldset>
        <legend>{title}</legend>
        <label>
          File <input name="file" type="file" />
        </label>
        <button type="submit" disabled={progress !== undefined}>
          Upload
        </button>
        {progress !== undefined && (
          <progress aria-label="Upload progress" max={1} value={progress}>
            {Math.round(progress * 100)}%
          </progress>
        )}
        <Alert message={error} />
      </fieldset>
    </form>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
