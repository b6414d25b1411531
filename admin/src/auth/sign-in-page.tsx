import { useState, type FormEvent } from 'react';
import { useServices } from '../context';
import { PasswordField } from '../components/password-fields';
import { ErrorMessage, Field } from '../components/ui';

/** The password grant of the `administration` client; the reason of an ended session, if there is one. */
export function SignInPage({ message }: { message?: string }) {
  const { session } = useServices();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await session.signIn(username, password);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <form onSubmit={(event) => void submit(event)} className="card" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Administration</h1>
        {message && (
          <p className="message message-info" role="status">
            {message}
          </p>
        )}
        <Field label="Username">
          {(props) => (
            <input
              {...props}
              name="username"
              autoComplete="username"
              required
              value={username}
              onChange={(event) => setUsername(event.target.value)}
            />
          )}
        </Field>
        <PasswordField
          label="Password"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        <ErrorMessage error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
