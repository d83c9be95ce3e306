import { useCallback, useState } from 'react';
import { Depth, EntityTypeInfo, Envelope, readRecord, saveRecord } from '../api/entities';
import { ApiError } from '../api/http';
import { Alert } from '../ui/Alert';
import { useRead } from '../ui/use-read';
import {
  ACTIONS,
  depthsOf,
  FieldGrid,
  fieldGridOf,
  governedTypes,
  PrivilegeGrid,
  privilegeGridOf,
  roleChildren,
  securedProperties,
} from './access-grid';

interface Loaded {
  role: Envelope;
  etag: string;
  privileges: PrivilegeGrid;
  fields: FieldGrid;
}

/** One role's privileges (a depth per type and action) and secured properties, saved at once. */
export function RoleEditor({ roleKey, types }: { roleKey: number; types: EntityTypeInfo[] }) {
  const read = useCallback(
    () =>
      readRecord('role', roleKey).then(({ envelope, etag }): Loaded => ({
        role: envelope,
        etag,
        privileges: privilegeGridOf(types, envelope),
        fields: fieldGridOf(types, envelope),
      })),
    [roleKey, types],
  );
  const {
    value: loaded,
    setValue: setLoaded,
    error,
    setError,
    reload,
  } = useRead<Loaded | undefined>(read, undefined);
  const [stale, setStale] = useState(false);
  const [status, setStatus] = useState<string>();
  const load = () => {
    setError(undefined);
    setStale(false);
    reload();
  };
  if (!loaded) return <Alert message={error} />;

  const name = String(loaded.role.properties.name);
  const depths = depthsOf(types);
  const setDepth = (type: string, action: (typeof ACTIONS)[number], depth: Depth) => {
    setStatus(undefined);
    setLoaded({
      ...loaded,
      privileges: { ...loaded.privileges, [type]: { ...loaded.privileges[type], [action]: depth } },
    });
  };
  const setField = (path: string, which: 'read' | 'update', allowed: boolean) => {
    setStatus(undefined);
    setLoaded({
      ...loaded,
      fields: { ...loaded.fields, [path]: { ...loaded.fields[path], [which]: allowed } },
    });
  };
  const save = () => {
    const children = roleChildren(loaded.role, loaded.privileges, loaded.fields);
    saveRecord({ entity_name: 'role', properties: {}, children }, roleKey, loaded.etag)
      .then(() => {
        setStatus(`Saved the role ${name}`);
        load();
      })
      .catch((e: ApiError) => {
        setError(e.message);
        setStale(e.status === 412);
      });
  };

  return (
    <section className="role" aria-label={`Role ${name}`}>
      <h3>Role {name}</h3>
      {error && (
        <p role="alert">
          {error}{' '}
          {stale && (
            <button type="button" onClick={load}>
              Reload
            </button>
          )}
        </p>
      )}
      {status && <p role="status">{status}</p>}
      <table aria-label={`Privileges of ${name}`}>
        <thead>
          <tr>
            <th scope="col">Entity type</th>
            {ACTIONS.map((action) => (
              <th key={action} scope="col">
                {action}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {governedTypes(types).map((type) => (
            <tr key={type.name}>
              <th scope="row">{type.label}</th>
              {ACTIONS.map((action) => (
                <td key={action}>
                  <select
                    aria-label={`${type.label}: ${action}`}
                    value={loaded.privileges[type.name][action]}
                    onChange={(e) => setDepth(type.name, action, e.target.value as Depth)}
                  >
                    {depths.map((depth) => (
                      <option key={depth} value={depth}>
                        {depth.replaceAll('_', ' ')}
                      </option>
                    ))}
                  </select>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {securedProperties(types).length > 0 && (
        <table aria-label={`Secured properties of ${name}`}>
          <thead>
            <tr>
              <th scope="col">Secured property</th>
              <th scope="col">read</th>
              <th scope="col">update</th>
            </tr>
          </thead>
          <tbody>
            {securedProperties(types).map(({ type, property }) => {
              const path = `${type.name}.${property.name}`;
              return (
                <tr key={path}>
                  <th scope="row">
                    {type.label}: {property.label}
                  </th>
                  {(['read', 'update'] as const).map((which) => (
                    <td key={which}>
                      <input
                        type="checkbox"
                        aria-label={`${type.label}: ${property.label}: ${which}`}
                        checked={loaded.fields[path][which]}
                        onChange={(e) => setField(path, which, e.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <button type="button" onClick={save}>
        Save
      </button>
    </section>
  );
}
