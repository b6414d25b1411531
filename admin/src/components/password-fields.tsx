import { useState } from 'react';
import { Field } from './ui';

/** The service's minimum (CreateUser.password, UpdateUser.password, ChangeOwnPassword.new_password). */
const PASSWORD_MIN_LENGTH = 12;

/** A labelled password input; `autoComplete` tells password managers which password it is. */
export function PasswordField({
  label,
  value,
  onChange,
  autoComplete,
  error,
  hint,
  name,
  minLength,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  error?: string;
  hint?: string;
  name?: string;
  minLength?: number;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => (
        <input
          {...props}
          name={name}
          type="password"
          autoComplete={autoComplete}
          required
          minLength={minLength}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/** The state of NewPasswordFields: the new password typed twice, and whether they differed at the last submit. */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  return {
    password,
    fields: { password, repeat, onPassword: setPassword, onRepeat: setRepeat, mismatch },
    /** On submit: whether the two match; when they do not, the fields say so. */
    confirmed: () => {
      setMismatch(password !== repeat);
      return password === repeat;
    },
    clear: () => {
      setPassword('');
      setRepeat('');
    },
  };
}

/** A new password typed twice; `mismatch` is set by the form when the two differ. */
export function NewPasswordFields({
  password,
  repeat,
  onPassword,
  onRepeat,
  error,
  mismatch,
  label = 'New password',
}: {
  password: string;
  repeat: string;
  onPassword: (value: string) => void;
  onRepeat: (value: string) => void;
  error?: string;
  mismatch: boolean;
  label?: string;
}) {
  return (
    <>
      <PasswordField
        label={label}
        value={password}
        onChange={onPassword}
        autoComplete="new-password"
        error={error}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        minLength={PASSWORD_MIN_LENGTH}
      />
      <PasswordField
        label={`Repeat ${label.toLowerCase()}`}
        value={repeat}
        onChange={onRepeat}
        autoComplete="new-password"
        error={mismatch ? 'The two passwords differ.' : undefined}
      />
    </>
  );
}
