import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../api/client';
import { ConfirmDialog, Dialog, ErrorMessage, Field } from '../components/ui';
import { useApi } from '../context';
import { fieldErrorsOf, RoleSelect } from './roles-shared';

export type User = Schemas['User'];

/** The service's minimum (CreateUser.password, UpdateUser.password, ChangeOwnPassword.new_password). */
export const PASSWORD_MIN_LENGTH = 12;

function useRefreshUsers() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['users'] });
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
      <Field label={label} error={error} hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            value={password}
            onChange={(event) => onPassword(event.target.value)}
          />
        )}
      </Field>
      <Field label={`Repeat ${label.toLowerCase()}`} error={mismatch ? 'The two passwords differ.' : undefined}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(event) => onRepeat(event.target.value)}
          />
        )}
      </Field>
    </>
  );
}

/** Submit and Cancel at the foot of a dialog's form. */
function FormActions({ busy, submit, onCancel }: { busy: boolean; submit: string; onCancel: () => void }) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Saving…' : submit}
      </button>
    </div>
  );
}

/** "Add user": username, password and role. */
export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Add user" open={open} onClose={onClose}>
      <AddUser onClose={onClose} />
    </Dialog>
  );
}

function AddUser({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshUsers();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [role, setRole] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/users', { body: { username: username.trim(), password, role } })),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const errors = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password === repeat) create.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Field label="Username" error={errors.username}>
        {(props) => (
          <input
            {...props}
            required
            autoComplete="off"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        )}
      </Field>
      <NewPasswordFields
        label="Password"
        password={password}
        repeat={repeat}
        onPassword={setPassword}
        onRepeat={setRepeat}
        error={errors.password}
        mismatch={mismatch}
      />
      <RoleSelect value={role} onChange={setRole} error={errors.role} />
      <ErrorMessage error={create.error} />
      <FormActions busy={create.isPending} submit="Create" onCancel={onClose} />
    </form>
  );
}

/** "Change role" of a user (the service keeps at least one administrator). */
export function ChangeRoleDialog({ user, onClose }: { user?: User; onClose: () => void }) {
  return (
    <Dialog title="Change role" open={!!user} onClose={onClose}>
      {user && <ChangeRole user={user} onClose={onClose} />}
    </Dialog>
  );
}

function ChangeRole({ user, onClose }: { user: User; onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshUsers();
  const [role, setRole] = useState(user.role);
  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH('/api/users/{id}', { params: { path: { id: user.id } }, body: { role } })),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <p>
        The role of <strong>{user.username}</strong> decides what they may do. Their current sign-ins get the new
        role&apos;s permissions at once.
      </p>
      <RoleSelect value={role} onChange={setRole} error={fieldErrorsOf(save.error).role} />
      <ErrorMessage error={save.error} />
      <FormActions busy={save.isPending} submit="Save" onCancel={onClose} />
    </form>
  );
}

/** "Reset password": an administrator sets a new one (UpdateUser.password); the user's sign-ins end. */
export function ResetPasswordDialog({ user, onClose }: { user?: User; onClose: () => void }) {
  return (
    <Dialog title="Reset password" open={!!user} onClose={onClose}>
      {user && <ResetPassword user={user} onClose={onClose} />}
    </Dialog>
  );
}

function ResetPassword({ user, onClose }: { user: User; onClose: () => void }) {
  const api = useApi();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH('/api/users/{id}', { params: { path: { id: user.id } }, body: { password } })),
  });
  if (save.isSuccess) {
    return (
      <>
        <p className="message message-info" role="status">
          The password of {user.username} was reset and their sign-ins have ended. Tell them the new password through a
          safe channel.
        </p>
        <div className="dialog-actions">
          <button type="button" className="primary" onClick={onClose}>
            Done
          </button>
        </div>
      </>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password === repeat) save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <p>
        Set a new password for <strong>{user.username}</strong>. Their current sign-ins end at once.
      </p>
      <NewPasswordFields
        password={password}
        repeat={repeat}
        onPassword={setPassword}
        onRepeat={setRepeat}
        error={fieldErrorsOf(save.error).password}
        mismatch={mismatch}
      />
      <ErrorMessage error={save.error} />
      <FormActions busy={save.isPending} submit="Save" onCancel={onClose} />
    </form>
  );
}

/** Asks before deleting; the service refuses to delete the last administrator. */
export function DeleteUserDialog({ user, isSelf, onClose }: { user?: User; isSelf: boolean; onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshUsers();
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/users/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await refresh();
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      title="Delete user"
      open={!!user}
      confirmLabel="Delete"
      busy={remove.isPending}
      error={remove.error}
      onConfirm={() => user && remove.mutate(user.id)}
      onCancel={close}
    >
      <p>
        Delete the user <strong>{user?.username}</strong>? Their sign-ins end at once. This cannot be undone.
      </p>
      {isSelf && <p className="message message-warning">This is you: you will be signed out.</p>}
    </ConfirmDialog>
  );
}
