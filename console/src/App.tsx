import { useEffect, useState } from 'react';
import { ApiError, entityTypes, EntityTypeInfo, serverInfo, ServerInfo, signOut } from './api';
import { FetchPlayground } from './FetchPlayground';
import { RecordList } from './RecordList';
import { SignIn } from './SignIn';

const SECTIONS = ['FETCH', 'Workflows', 'Files', 'API keys'] as const;

/** The console's frame: sign-in until there is a session, then navigation and a screen. */
export function App() {
  const [info, setInfo] = useState<ServerInfo | undefined>();
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    serverInfo()
      .then(setInfo)
      .catch(() => undefined)
      .finally(() => setChecked(true));
  }, []);
  if (!checked) return null;
  if (!info?.userName) return <SignIn onSignedIn={setInfo} />;
  return <Shell info={info} onSignedOut={() => setInfo(undefined)} />;
}

function Shell({ info, onSignedOut }: { info: ServerInfo; onSignedOut: () => void }) {
  const [types, setTypes] = useState<EntityTypeInfo[]>([]);
  const [screen, setScreen] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    entityTypes()
      .then((all) => setTypes(all.filter((type) => !type.parent)))
      .catch((e: ApiError) => setError(e.message));
  }, []);
  const current = types.find((type) => type.name === screen);
  return (
    <div className="shell">
      <header>
        <span className="brand">{info.name}</span>
        <span>{info.userFullName ?? info.userName}</span>
        <button type="button" onClick={() => void signOut().then(onSignedOut)}>
          Sign out
        </button>
      </header>
      <nav aria-label="Main">
        {types.map((type) => (
          <a key={type.name} href={`#${type.name}`} onClick={() => setScreen(type.name)}>
            {type.label}
          </a>
        ))}
        {SECTIONS.map((section) => (
          <a key={section} href={`#${section}`} onClick={() => setScreen(section)}>
            {section}
          </a>
        ))}
      </nav>
      <main>
        {error && <p role="alert">{error}</p>}
        {current && <RecordList key={current.name} type={current} />}
        {screen === 'FETCH' && <FetchPlayground />}
      </main>
    </div>
  );
}
