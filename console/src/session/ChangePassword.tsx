import { FormEvent, useState } from 'react';
import { ApiError } from '../api/http';
import { changePassword } from '../api/session';
import { Alert } from '../ui/Alert';

/** POST /auth/password: the user's other sessions end, this one stays. */
export function ChangePassword() {
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const field = (name: string) => String(new FormData(form).get(name));
    setError(undefined);
    setDone(false);
    changePassword(field('current'), field('next'), field('confirm'))
      .then(() => {
        form.reset();
        setDone(true);
      })
      .catch((e: ApiError) => setError(e.message));
  };
  return (
    <section>
      <h2>Change password</h2>
      <form className="narrow" onSubmit={submit}>
        <label>
          Current password{' '}
          <input name="current" type="password" autoComplete="current-password" required />
        </label>
        <label>
          New password{' '}
          <input name="next" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        <label>
          Confirm new password{' '}
          <input name="confirm" type="password" autoComplete="new-password" required />
        </label>
        <Alert message={error} />
        {done && <p role="status">Password changed. Your other sessions have ended.</p>}
        <button type="submit">Change password</button>
      </form>
    </section>
  );
}
