import { useState, type FormEvent } from 'react';
import { NewPasswordFields, PasswordField, useNewPassword } from '../components/password-fields';
import { ErrorMessage } from '../components/ui';
import { fieldErrorsOf } from './roles-shared';
import { useChangeOwnPassword } from '../account';

/** "Your password": the signed-in user proves the current password and sets a new one (this sign-in stays). */
export function OwnPasswordPanel() {
  const change = useChangeOwnPassword();
  const [current, setCurrent] = useState('');
  const newPassword = useNewPassword();
  const errors = fieldErrorsOf(change.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!newPassword.confirmed()) return;
    change.mutate(
      { current_password: current, new_password: newPassword.password },
      {
        onSuccess: () => {
          setCurrent('');
          newPassword.clear();
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
        <PasswordField
          label="Current password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          error={errors.current_password}
        />
        <NewPasswordFields {...newPassword.fields} error={errors.new_password} />
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
