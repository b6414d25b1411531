import { useState } from 'react';
import { EmptyState, ErrorMessage, PageHeader, Progress } from '../../../components/ui';
import { SystemTable } from '../system-table';
import { DeleteRoleDialog, RoleDialog } from './role-dialogs';
import { mayGrant, useRoles, type Role } from '../roles-shared';
import { useMe } from '../../../account';
import { usePermissions } from '../../../permissions';

type Open = { kind: 'add' } | { kind: 'edit' | 'delete'; role: Role } | undefined;

/** Settings › System › Roles: named sets of permissions that users and integrations are given. */
export function RolesPage() {
  const roles = useRoles();
  const mayWrite = usePermissions().may('role:write');
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  return (
    <>
      <PageHeader title="Roles">
        {mayWrite && (
          <button type="button" className="primary" onClick={() => setOpen({ kind: 'add' })}>
            Add role
          </button>
        )}
      </PageHeader>
      <p className="page-intro">
        A role names what its users and integrations may do: read or write per resource, or everything.
      </p>
      {roles.isPending && <Progress label="Loading roles…" />}
      <ErrorMessage error={roles.error} />
      {roles.data?.length === 0 && (
        <EmptyState title="No roles yet">
          {mayWrite && 'Choose “Add role” to define what a user or an integration may do, then give it to them.'}
        </EmptyState>
      )}
      {!!roles.data?.length && (
        <RolesTable roles={roles.data} onAction={mayWrite ? (kind, role) => setOpen({ kind, role }) : undefined} />
      )}
      <RoleDialog
        open={open?.kind === 'add' || open?.kind === 'edit'}
        role={open?.kind === 'edit' ? open.role : undefined}
        onClose={close}
      />
      <DeleteRoleDialog role={open?.kind === 'delete' ? open.role : undefined} onClose={close} />
    </>
  );
}

/** `onAction` is absent when the signed-in account may only read. */
function RolesTable({ roles, onAction }: { roles: Role[]; onAction?: (kind: 'edit' | 'delete', role: Role) => void }) {
  const held = useMe().data?.permissions;
  return (
    <SystemTable columns={['Name', 'Permissions']} actions={!!onAction}>
      {roles.map((role) => (
        <tr key={role.id}>
          <td data-label="Name">
            <strong>{role.name}</strong> {role.built_in && <span className="badge">Built in</span>}
          </td>
          <td data-label="Permissions">
            <PermissionSummary permissions={role.permissions} />
          </td>
          {onAction && (
            <td className="actions">
              {role.built_in ? (
                <span className="hint">Cannot be changed</span>
              ) : !mayGrant(held, role.permissions) ? (
                <span className="hint">Holds permissions you do not</span>
              ) : (
                <>
                  <button type="button" className="small" onClick={() => onAction('edit', role)}>
                    Edit
                  </button>
                  <button type="button" className="small danger" onClick={() => onAction('delete', role)}>
                    Delete
                  </button>
                </>
              )}
            </td>
          )}
        </tr>
      ))}
    </SystemTable>
  );
}

/** "Everything", or each resource with its accesses ("product: read, write"). */
function PermissionSummary({ permissions }: { permissions: string[] }) {
  if (permissions.includes('*')) return <span className="badge ok">Everything</span>;
  if (permissions.length === 0) return <span className="hint">None</span>;
  const byResource = new Map<string, string[]>();
  for (const permission of [...permissions].sort()) {
    const [resource, access] = permission.split(':');
    byResource.set(resource, [...(byResource.get(resource) ?? []), access]);
  }
  return (
    <ul className="permission-list">
      {[...byResource].map(([resource, accesses]) => (
        <li key={resource} className="badge">
          {resource}: {accesses.join(', ')}
        </li>
      ))}
    </ul>
  );
}
