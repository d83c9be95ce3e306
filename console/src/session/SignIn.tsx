import { FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../api/http';
import {
  OauthProvider,
  oauthProviders,
  providerLoginUrl,
  ServerInfo,
  signIn,
} from '../api/session';
import { Alert } from '../ui/Alert';
import { markFirstScreen } from '../ui/first-screen';

/** User and password, or a button per OpenID provider (GET /oauth). */
export function SignIn({ onSignedIn }: { onSignedIn: (info: ServerInfo) => void }) {
  const [error, setError] = useState<string | undefined>();
  const [providers, setProviders] = useState<OauthProvider[]>([]);
  useEffect(markFirstScreen, []);
  useEffect(() => {
    oauthProviders()
      .then(setProviders)
      .catch(() => setProviders([]));
  }, []);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    signIn(String(form.get('user')), String(form.get('password')))
      .then(onSignedIn)
      .catch((e: ApiError) => setError(e.message));
  };
  // Back to this very page (the console's address) once the provider has signed one in.
  const returnTo = `${location.origin}${location.pathname}`;
  return (
    <div className="sign-in">
      <form onSubmit={submit}>
        <h1>Atrium</h1>
        <label>
          User <input name="user" autoComplete="username" required />
        </label>
        <label>
          Password{' '}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <Alert message={error} />
        <button type="submit">Sign in</button>
      </form>
      {providers.length > 0 && (
        <div className="providers" role="group" aria-label="OpenID providers">
          {providers.map((provider) => (
            <a key={provider.name} className="button" href={providerLoginUrl(provider, returnTo)}>
              Sign in with {provider.displayName}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
