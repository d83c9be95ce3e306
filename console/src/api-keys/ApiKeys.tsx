import { FormEvent, useState } from 'react';
import { ApiKeyInfo, apiKeys, createApiKey, revokeApiKey } from '../api/api-keys';
import { ApiError } from '../api/http';
import { Alert } from '../ui/Alert';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ShownOnce } from '../ui/ShownOnce';
import { useRead } from '../ui/use-read';

/** The user's API keys: create one (its secret shown this once), list them, revoke one. */
export function ApiKeys() {
  const { value: keys, error, setError, reload: list } = useRead<ApiKeyInfo[]>(apiKeys, []);
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const [revoking, setRevoking] = useState<ApiKeyInfo>();

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const expires = String(data.get('expires') ?? '');
    setError(undefined);
    createApiKey(String(data.get('name')), expires ? new Date(expires).toISOString() : undefined)
      .then((key) => {
        form.reset();
        setCreated(key);
        list();
      })
      .catch((e: ApiError) => setError(e.message));
  };
  const revoke = (key: ApiKeyInfo) => {
    setRevoking(undefined);
    revokeApiKey(key.id)
      .then(list)
      .catch((e: ApiError) => setError(e.message));
  };

  return (
    <section>
      <h2>API keys</h2>
      <form className="inline" aria-label="Create an API key" onSubmit={create}>
        <label>
          Name <input name="name" required maxLength={100} />
        </label>
        <label>
          Expires <input name="expires" type="datetime-local" />
        </label>
        <button type="submit">Create key</button>
      </form>
      <Alert message={error} />
      {created && (
        <ShownOnce key={created.key} label="New API key" value={created.key}>
          The key <strong>{created.name}</strong>, shown this once: copy it now.
        </ShownOnce>
      )}
      <table aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Revoke</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>{when(key.createdAt)}</td>
              <td>{when(key.expiresAt) || 'never'}</td>
              <td>{when(key.lastUsedAt) || 'never'}</td>
              <td>
                <button type="button" className="danger" onClick={() => setRevoking(key)}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        question={
          revoking &&
          `Revoke the key "${revoking.name}"? Programs using it are refused from now on.`
        }
        action="Revoke"
        onConfirm={() => revoking && revoke(revoking)}
        onCancel={() => setRevoking(undefined)}
      />
    </section>
  );
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');
