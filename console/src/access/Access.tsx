import { FormEvent, useMemo, useState } from 'react';
import { EntityTypeInfo, readRecord, saveRecord } from '../api/entities';
import { fetchRows, Row } from '../api/fetch';
import { ApiError } from '../api/http';
import type { TypeIndex } from '../records/record-values';
import { Alert } from '../ui/Alert';
import { useRead } from '../ui/use-read';
import { RoleEditor } from './RoleEditor';
import { userRoles } from './access-grid';

const ROLES = 'FETCH role (key, name, description) ORDER BY name ASC';
/** Each user once per role held (or once, holding none). */
const USERS_AND_ROLES =
  'FETCH user (key, user_name, full_name) { user_role AS held OUTER FROM id_parent_user TO key (id_role) } ORDER BY user_name ASC';

/** The roles, the users, and who holds what (`<user key>:<role key>`). */
async function readAccess() {
  const [roles, userRows] = await Promise.all([fetchRows(ROLES), fetchRows(USERS_AND_ROLES)]);
  const held = userRows.filter((row) => row['held.id_role'] !== null);
  return {
    roles,
    users: [...new Map(userRows.map((row) => [row.key, row])).values()],
    holds: new Set(held.map((row) => `${String(row.key)}:${String(row['held.id_role'])}`)),
  };
}

/** Security roles with their privilege grids, and which users hold which role. */
export function Access({ types }: { types: TypeIndex }) {
  const {
    value,
    setValue,
    error,
    setError,
    reload: load,
  } = useRead(readAccess, {
    roles: [] as Row[],
    users: [] as Row[],
    holds: new Set<string>(),
  });
  const { roles, users, holds } = value;
  const [chosen, setChosen] = useState<number>();
  const [status, setStatus] = useState<string>();
  // One array for as long as the types are the same: the role editor reads again when it changes.
  const all = useMemo<EntityTypeInfo[]>(() => [...types.values()], [types]);

  const createRole = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name'));
    saveRecord({ entity_name: 'role', properties: { name } })
      .then((key) => {
        form.reset();
        setChosen(key);
        load();
      })
      .catch((e: ApiError) => setError(e.message));
  };
  /** A user's roles are their record's child group: read, changed, saved whole. */
  const toggle = async (user: Row, role: Row, holding: boolean) => {
    setError(undefined);
    setStatus(undefined);
    const userKey = Number(user.key);
    const pair = `${userKey}:${String(role.key)}`;
    const held = new Set(holds);
    if (holding) held.add(pair);
    else held.delete(pair);
    setValue({ ...value, holds: held }); // shown at once; what is stored is read back after the save
    try {
      const { envelope, etag } = await readRecord('user', userKey);
      const next = roles.map((r) => Number(r.key)).filter((key) => held.has(`${userKey}:${key}`));
      await saveRecord(
        {
          entity_name: 'user',
          properties: {},
          children: { user_user_role: userRoles(envelope, next) },
        },
        userKey,
        etag,
      );
      setStatus(`Saved the roles of ${String(user.user_name)}`);
    } catch (e) {
      setError((e as ApiError).message);
    }
    load();
  };

  return (
    <section>
      <h2>Access</h2>
      <Alert message={error} />
      {status && <p role="status">{status}</p>}
      <div className="access">
        <div>
          <table aria-label="Roles">
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {roles.map((role) => (
                <tr key={String(role.key)} aria-selected={Number(role.key) === chosen}>
                  <td>
                    <button
                      type="button"
                      className="link"
                      onClick={() => setChosen(Number(role.key))}
                    >
                      {String(role.name)}
                    </button>
                  </td>
                  <td>{String(role.description ?? '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <form className="inline" aria-label="New role" onSubmit={createRole}>
            <label>
              Role name <input name="name" required maxLength={100} />
            </label>
            <button type="submit">Create role</button>
          </form>
        </div>
        {chosen !== undefined && <RoleEditor key={chosen} roleKey={chosen} types={all} />}
      </div>
      <h3>Users&apos; roles</h3>
      <table aria-label="Users' roles">
        <thead>
          <tr>
            <th scope="col">User</th>
            {roles.map((role) => (
              <th key={String(role.key)} scope="col">
                {String(role.name)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={String(user.key)}>
              <th scope="row">
                {String(user.full_name)} <span className="muted">{String(user.user_name)}</span>
              </th>
              {roles.map((role) => (
                <td key={String(role.key)}>
                  <input
                    type="checkbox"
                    aria-label={`${String(role.name)} for ${String(user.user_name)}`}
                    checked={holds.has(`${String(user.key)}:${String(role.key)}`)}
                    onChange={(event) => void toggle(user, role, event.target.checked)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
