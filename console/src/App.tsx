import { useEffect, useState } from 'react';
import { serverInfo, ServerInfo } from './api/session';
import { SignIn } from './session/SignIn';
import { Shell } from './Shell';

/** The console: sign-in until there is a session, then the shell. */
export function App() {
  const [info, setInfo] = useState<ServerInfo | undefined>();
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    // With a session (a reload, a new tab, the return from an OpenID provider) this also
    // hands over the session's CSRF token.
    serverInfo()
      .then(setInfo)
      .catch(() => undefined)
      .finally(() => setChecked(true));
  }, []);
  if (!checked) return null;
  if (!info?.userName) return <SignIn onSignedIn={setInfo} />;
  return <Shell info={info} onSignedOut={() => setInfo(undefined)} />;
}
