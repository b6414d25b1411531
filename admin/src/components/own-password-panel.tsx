import { useState, type FormEvent } from 'react';
import { NewPasswordFields, PasswordField, useNewPassword } from './password-fields';
import { Dialog, ErrorMessage } from './ui';
import { fieldErrorsOf } from '../pages/system/roles-shared';
import { useChangeOwnPassword } from '../account';

/** "Your password", from the account menu: a dialog around the form. */
export function OwnPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Your password" open={open} onClose={onClose}>
      <OwnPasswordForm onClose={onClose} />
    </Dialog>
  );
}

/** The signed-in user proves the current password and sets a new one (this sign-in stays). */
function OwnPasswordForm({ onClose }: { onClose: () => void }) {
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
    <form onSubmit={submit} className="own-password">
      <p className="hint">
        Your other sign-ins (other browsers, other devices) end when you change it; this one stays.
      </p>
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
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {change.isSuccess ? 'Done' : 'Cancel'}
        </button>
        <button type="submit" className="primary" disabled={change.isPending}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
