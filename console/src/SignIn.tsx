import { FormEvent, useState } from 'react';
import { ApiError, ServerInfo, signIn } from './api';

export function SignIn({ onSignedIn }: { onSignedIn: (info: ServerInfo) => void }) {
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    signIn(String(form.get('user')), String(form.get('password')))
      .then(onSignedIn)
      .catch((e: ApiError) => setError(e.message));
  };
  return (
    <form className="sign-in" onSubmit={submit}>
      <h1>Atrium</h1>
      <label>
        User <input name="user" autoComplete="username" required />
      </label>
      <label>
        Password <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit">Sign in</button>
    </form>
  );
}
