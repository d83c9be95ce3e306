import { lazy, Suspense, useEffect, useMemo } from 'react';
import { ApiKeys } from './api-keys/ApiKeys';
import { Access } from './access/Access';
import { Audit } from './audit/Audit';
import { entityTypes, privileges, Privileges } from './api/entities';
import { ServerInfo, signOut } from './api/session';
import { Files } from './files/Files';
import { RecordForm } from './records/RecordForm';
import { RecordList } from './records/RecordList';
import type { TypeIndex } from './records/record-values';
import { hrefOf, Route, Section, SECTIONS, useRoute } from './routes';
import { ChangePassword } from './session/ChangePassword';
import { Alert } from './ui/Alert';
import { markFirstScreen } from './ui/first-screen';
import { useRead } from './ui/use-read';
import { Jobs } from './jobs/Jobs';
import { Webhooks } from './webhooks/Webhooks';
import { Workflows } from './workflows/Workflows';

// The editor (CodeMirror) is most of the console's script: fetched when first opened.
const FetchPlayground = lazy(() =>
  import('./fetch/FetchPlayground').then((module) => ({ default: module.FetchPlayground })),
);

/** The types the user may read, by name, and what the user may do with each. */
async function readGrants(): Promise<{ types: TypeIndex; granted?: Privileges }> {
  const [all, granted] = await Promise.all([entityTypes(), privileges()]);
  return { types: new Map(all.map((type) => [type.name, type])), granted };
}

/** The signed-in frame: the user, a navigation by entity type and section, the screen. */
export function Shell({ info, onSignedOut }: { info: ServerInfo; onSignedOut: () => void }) {
  const route = useRoute();
  const { value, error } = useRead(readGrants, { types: new Map() });
  const { types, granted } = value;
  useEffect(() => {
    if (types.size > 0) markFirstScreen();
  }, [types]);
  const topLevel = useMemo(
    () => [...types.values()].filter((type) => !type.parent && !SHOWN_ELSEWHERE.has(type.name)),
    [types],
  );
  const business = topLevel.filter((type) => !ADMINISTRATION_TYPES.includes(type.name));
  const administration = ADMINISTRATION_TYPES.flatMap((name) => types.get(name) ?? []);
  const may = (type: string, action: 'create' | 'delete') =>
    (granted?.entities[type]?.[action] ?? 'none') !== 'none';
  const holds = (privilege: string) => granted?.privileges.includes(privilege) ?? false;
  const sections = (Object.keys(SECTIONS) as Section[]).filter(shownFor(types, holds));

  return (
    <div className="shell">
      <header>
        <span className="brand">{info.name}</span>
        <a href={hrefOf({ screen: 'password' })}>{info.userFullName ?? info.userName}</a>
        <button type="button" onClick={() => void signOut().then(onSignedOut)}>
          Sign out
        </button>
      </header>
      <nav aria-label="Main">
        {business.map((type) => (
          <NavLink key={type.name} route={{ screen: 'records', type: type.name }} current={route}>
            {type.label}
          </NavLink>
        ))}
        {sections
          .filter((section) => !ADMINISTRATION_SECTIONS.includes(section))
          .map((section) => (
            <NavLink key={section} route={{ screen: 'section', section }} current={route}>
              {SECTIONS[section]}
            </NavLink>
          ))}
        {administration.length +
          sections.filter((s) => ADMINISTRATION_SECTIONS.includes(s)).length >
          0 && (
          <div className="nav-group" role="group" aria-labelledby="nav-administration">
            <span id="nav-administration">Administration</span>
            {administration.map((type) => (
              <NavLink
                key={type.name}
                route={{ screen: 'records', type: type.name }}
                current={route}
              >
                {type.label}
              </NavLink>
            ))}
            {sections
              .filter((section) => ADMINISTRATION_SECTIONS.includes(section))
              .map((section) => (
                <NavLink key={section} route={{ screen: 'section', section }} current={route}>
                  {SECTIONS[section]}
                </NavLink>
              ))}
          </div>
        )}
      </nav>
      <main>
        <Alert message={error} />
        {types.size > 0 && <Screen route={route} types={types} may={may} />}
      </main>
    </div>
  );
}

function Screen({
  route,
  types,
  may,
}: {
  route: Route;
  types: TypeIndex;
  may: (type: string, action: 'create' | 'delete') => boolean;
}) {
  switch (route.screen) {
    case 'records':
    case 'record': {
      const type = types.get(route.type);
      if (!type) return <Alert message={`There is no entity type "${route.type}" you may read`} />;
      return route.screen === 'records' ? (
        <RecordList
          key={type.name}
          type={type}
          types={types}
          canCreate={may(type.name, 'create')}
        />
      ) : (
        // Kept across "new" and the key it is saved under: its "Saved" stays.
        <RecordForm
          key={type.name}
          type={type}
          types={types}
          recordKey={route.key}
          tab={route.tab}
          canDelete={may(type.name, 'delete')}
        />
      );
    }
    case 'password':
      return <ChangePassword />;
    case 'section':
      switch (route.section) {
        case 'fetch':
          return (
            <Suspense fallback={<p>Loading the editor…</p>}>
              <FetchPlayground />
            </Suspense>
          );
        case 'workflows':
          return <Workflows />;
        case 'files':
          return <Files />;
        case 'api-keys':
          return <ApiKeys />;
        case 'access':
          return <Access types={types} />;
        case 'audit':
          return <Audit types={types} />;
        case 'webhooks':
          return <Webhooks />;
        case 'jobs':
          return <Jobs />;
      }
      break;
    case 'home':
      return <p>Choose an entity type or a section above.</p>;
  }
}

/** Who runs the organization: its people, units and roles, after the business's own types. */
const ADMINISTRATION_TYPES = ['role', 'user', 'business_unit', 'organization'];
const ADMINISTRATION_SECTIONS: Section[] = ['access', 'audit', 'webhooks', 'jobs'];
/** Types with a screen of their own: the change log is the Audit, webhooks Webhooks. */
const SHOWN_ELSEWHERE = new Set(['change_log', 'webhook']);

/**
 * Access is for those who may read roles; the audit for those who may read the change
 * log; webhooks and failed jobs for the holders of the privileges that manage them.
 */
const shownFor =
  (types: TypeIndex, holds: (privilege: string) => boolean) => (section: Section) => {
    switch (section) {
      case 'access':
        return types.has('role');
      case 'audit':
        return types.has('change_log');
      case 'webhooks':
        return holds('manage-webhooks');
      case 'jobs':
        return holds('manage-jobs');
      default:
        return true;
    }
  };

function NavLink({ route, current, children }: { route: Route; current: Route; children: string }) {
  const href = hrefOf(route);
  const here =
    href === hrefOf(current) ||
    (current.screen === 'record' && route.screen === 'records' && route.type === current.type);
  return (
    <a href={href} aria-current={here ? 'page' : undefined}>
      {children}
    </a>
  );
}
