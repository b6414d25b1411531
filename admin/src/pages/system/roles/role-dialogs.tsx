import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap } from '../../../api/client';
import { DeleteDialog } from '../../../components/delete-dialog';
import { Dialog, ErrorMessage, Field, FormActions, Progress } from '../../../components/ui';
import { useApi } from '../../../context';
import { normalizePermissions, PermissionPicker } from './permission-picker';
import { fieldErrorsOf, type Role } from '../roles-shared';
import { useMe, usePermissionCatalog } from '../../../account';

function useRefreshRoles() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['roles'] });
}

/** "Add role" (no role given) or "Edit role": a name and the permissions picked. */
export function RoleDialog({ open, role, onClose }: { open: boolean; role?: Role; onClose: () => void }) {
  return (
    <Dialog title={role ? 'Edit role' : 'Add role'} open={open} onClose={onClose}>
      <RoleForm role={role} onClose={onClose} />
    </Dialog>
  );
}

function RoleForm({ role, onClose }: { role?: Role; onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshRoles();
  const catalog = usePermissionCatalog();
  const me = useMe();
  const [name, setName] = useState(role?.name ?? '');
  const [permissions, setPermissions] = useState<string[]>(role?.permissions ?? []);
  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), permissions: normalizePermissions(permissions) };
      return role
        ? unwrap(api.PATCH('/api/roles/{id}', { params: { path: { id: role.id } }, body }))
        : unwrap(api.POST('/api/roles', { body }));
    },
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const errors = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Field label="Name" error={errors.name} hint="For example “catalog-editor”.">
        {(props) => <input {...props} required value={name} onChange={(event) => setName(event.target.value)} />}
      </Field>
      {(catalog.isPending || me.isPending) && <Progress label="Loading permissions…" />}
      <ErrorMessage error={catalog.error} />
      {catalog.data && !me.isPending && (
        <PermissionPicker
          catalog={catalog.data}
          held={me.data?.permissions}
          initial={role?.permissions ?? []}
          value={permissions}
          onChange={setPermissions}
          error={errors.permissions}
        />
      )}
      <ErrorMessage error={save.error} />
      <FormActions
        busy={save.isPending}
        disabled={!catalog.data}
        submit={role ? 'Save' : 'Create'}
        onCancel={onClose}
      />
    </form>
  );
}

/** Asks before deleting; the service refuses (409) while a user or an integration has the role. */
export function DeleteRoleDialog({ role, onClose }: { role?: Role; onClose: () => void }) {
  const api = useApi();
  return (
    <DeleteDialog
      title="Delete role"
      target={role}
      remove={({ id }) => unwrap(api.DELETE('/api/roles/{id}', { params: { path: { id } } }))}
      refresh={['roles']}
      onClose={onClose}
    >
      <p>
        Delete the role <strong>{role?.name}</strong>? A role that a user or an integration still has cannot be deleted:
        give them another role first.
      </p>
    </DeleteDialog>
  );
}
