import { useState, type FormEvent } from 'react';
import { ErrorMessage, Field } from '../components/ui';
import { fieldErrorsOf } from './roles-shared';
import { useChangeOwnPassword } from '../account';
import { NewPasswordFields } from './user-dialogs';

/** "Your password": the signed-in user proves the current password and sets a new one (this sign-in stays). */
export function OwnPasswordPanel() {
  const change = useChangeOwnPassword();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const errors = fieldErrorsOf(change.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password !== repeat) return;
    change.mutate(
      { current_password: current, new_password: password },
      {
        onSuccess: () => {
          setCurrent('');
          setPassword('');
          setRepeat('');
        },
      },
    );
  };
  return (
    <section className="panel own-password" aria-labelledby="own-password-title">
      <h2 id="own-password-title">Your password</h2>
      <p className="hint">
        Your other sign-ins (other browsers, other devices) end when you change it; this one stays.
      </p>
      <form onSubmit={submit}>
        <Field label="Current password" error={errors.current_password}>
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
            />
          )}
        </Field>
        <NewPasswordFields
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
          error={errors.new_password}
          mismatch={mismatch}
        />
        <ErrorMessage error={change.error} />
        {change.isSuccess && (
          <p className="message message-info" role="status">
            Your password was changed.
          </p>
        )}
        <button type="submit" className="primary" disabled={change.isPending}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
