import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import type { ListColumn } from '../../../components/lists/data-table';
import { ListView } from '../../../components/lists/list-view';
import { listQuery, useListParams } from '../../../components/lists/use-list-params';
import { formatDate, PageHeader } from '../../../components/ui';
import { useApi } from '../../../context';
import { DeleteRoleDialog, RoleDialog } from './role-dialogs';
import { mayGrant, type Role } from '../roles-shared';
import { useMe } from '../../../account';
import { usePermissions } from '../../../permissions';

type Open = { kind: 'add' } | { kind: 'edit' | 'delete'; role: Role } | undefined;

const PAGE_SIZE = 20;

/** Settings › System › Roles: named sets of permissions that users and integrations are given. */
export function RolesPage() {
  const api = useApi();
  const [params, setParams] = useListParams();
  const roles = useQuery({
    queryKey: ['roles', params],
    queryFn: () =>
      unwrap(api.GET('/api/roles', { params: { query: listQuery<Schemas['RoleSort']>(params, PAGE_SIZE) } })),
    placeholderData: keepPreviousData,
  });
  const mayWrite = usePermissions().may('role:write');
  const held = useMe().data?.permissions;
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const actions = (role: Role) =>
    role.built_in ? (
      <span className="hint">Cannot be changed</span>
    ) : !mayGrant(held, role.permissions) ? (
      <span className="hint">Holds permissions you do not</span>
    ) : (
      <>
        <button type="button" className="small" onClick={() => setOpen({ kind: 'edit', role })}>
          Edit
        </button>
        <button type="button" className="small danger" onClick={() => setOpen({ kind: 'delete', role })}>
          Delete
        </button>
      </>
    );
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
      <ListView
        label="Roles"
        search="Search roles"
        query={roles}
        params={params}
        onParams={setParams}
        columns={COLUMNS}
        rowKey={(role) => role.id}
        actions={mayWrite ? actions : undefined}
        empty={{
          title: 'No roles yet',
          hint: mayWrite && 'Choose “Add role” to define what a user or an integration may do, then give it to them.',
        }}
      />
      <RoleDialog
        open={open?.kind === 'add' || open?.kind === 'edit'}
        role={open?.kind === 'edit' ? open.role : undefined}
        onClose={close}
      />
      <DeleteRoleDialog role={open?.kind === 'delete' ? open.role : undefined} onClose={close} />
    </>
  );
}

const COLUMNS: ListColumn<Role>[] = [
  {
    id: 'name',
    header: 'Name',
    sort: 'name',
    cell: (role) => (
      <>
        <strong>{role.name}</strong> {role.built_in && <span className="badge">Built in</span>}
      </>
    ),
  },
  { id: 'permissions', header: 'Permissions', cell: (role) => <PermissionSummary permissions={role.permissions} /> },
  {
    id: 'created_at',
    header: 'Created',
    sort: 'created_at',
    className: 'nowrap',
    cell: (role) => formatDate(role.created_at),
  },
];

/** "All permissions", or each resource with its accesses ("product: read, write"). */
function PermissionSummary({ permissions }: { permissions: string[] }) {
  if (permissions.includes('*')) return <span className="badge ok">All permissions</span>;
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
