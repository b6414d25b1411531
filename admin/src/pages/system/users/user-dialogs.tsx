import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import { DeleteDialog } from '../../../components/delete-dialog';
import { NewPasswordFields, useNewPassword } from '../../../components/password-fields';
import { Dialog, ErrorMessage, Field, FormActions } from '../../../components/ui';
import { useApi } from '../../../context';
import { fieldErrorsOf, RoleSelect } from '../roles-shared';

export type User = Schemas['User'];

function useRefreshUsers() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['users'] });
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
  const newPassword = useNewPassword();
  const [role, setRole] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/users', { body: { username: username.trim(), password: newPassword.password, role } })),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const errors = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (newPassword.confirmed()) create.mutate();
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
      <NewPasswordFields {...newPassword.fields} label="Password" error={errors.password} />
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
  const newPassword = useNewPassword();
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/users/{id}', { params: { path: { id: user.id } }, body: { password: newPassword.password } }),
      ),
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
    if (newPassword.confirmed()) save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <p>
        Set a new password for <strong>{user.username}</strong>. Their current sign-ins end at once.
      </p>
      <NewPasswordFields {...newPassword.fields} error={fieldErrorsOf(save.error).password} />
      <ErrorMessage error={save.error} />
      <FormActions busy={save.isPending} submit="Save" onCancel={onClose} />
    </form>
  );
}

/** Asks before deleting; the service refuses to delete the last administrator. */
export function DeleteUserDialog({ user, isSelf, onClose }: { user?: User; isSelf: boolean; onClose: () => void }) {
  const api = useApi();
  return (
    <DeleteDialog
      title="Delete user"
      target={user}
      remove={({ id }) => unwrap(api.DELETE('/api/users/{id}', { params: { path: { id } } }))}
      refresh={['users']}
      onClose={onClose}
    >
      <p>
        Delete the user <strong>{user?.username}</strong>? Their sign-ins end at once. This cannot be undone.
      </p>
      {isSelf && <p className="message message-warning">This is you: you will be signed out.</p>}
    </DeleteDialog>
  );
}
