import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../../api/client';
import { EmptyState, ErrorMessage, formatDate, PageHeader, Progress } from '../../../components/ui';
import { SystemTable } from '../system-table';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import { AddUserDialog, ChangeRoleDialog, DeleteUserDialog, ResetPasswordDialog, type User } from './user-dialogs';

type Action = 'role' | 'password' | 'delete';
type Open = { kind: 'add' } | { kind: Action; user: User } | undefined;

/** Settings › System › Users: who signs in to this interface, with which role (changes need user:write). */
export function UsersPage() {
  const api = useApi();
  const users = useQuery({ queryKey: ['users'], queryFn: () => unwrap(api.GET('/api/users')) });
  const { me: account, may } = usePermissions();
  const me = account.data;
  const mayWrite = may('user:write');
  const isSelf = (user?: User) => me?.kind === 'user' && me.id === user?.id;
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const target = (kind: Action) => (open?.kind === kind ? open.user : undefined);
  return (
    <>
      <PageHeader title="Users">
        {mayWrite && (
          <button type="button" className="primary" onClick={() => setOpen({ kind: 'add' })}>
            Add user
          </button>
        )}
      </PageHeader>
      <p className="page-intro">People who sign in to this administration interface, each with a role.</p>
      {users.isPending && <Progress label="Loading users…" />}
      <ErrorMessage error={users.error} />
      {users.data?.length === 0 && (
        <EmptyState title="No users yet">{mayWrite && 'Choose “Add user” to let a person sign in here.'}</EmptyState>
      )}
      {!!users.data?.length && (
        <UsersTable
          users={users.data}
          isSelf={isSelf}
          onAction={mayWrite ? (kind, user) => setOpen({ kind, user }) : undefined}
        />
      )}
      <AddUserDialog open={open?.kind === 'add'} onClose={close} />
      <ChangeRoleDialog user={target('role')} onClose={close} />
      <ResetPasswordDialog user={target('password')} onClose={close} />
      <DeleteUserDialog user={target('delete')} isSelf={isSelf(target('delete'))} onClose={close} />
    </>
  );
}

function UsersTable({
  users,
  isSelf,
  onAction,
}: {
  users: User[];
  isSelf: (user: User) => boolean;
  /** Absent when the signed-in account may only read. */
  onAction?: (kind: Action, user: User) => void;
}) {
  return (
    <SystemTable columns={['Username', 'Role', 'Created']} actions={!!onAction}>
      {users.map((user) => (
        <tr key={user.id}>
          <td data-label="Username">
            <strong>{user.username}</strong> {isSelf(user) && <span className="badge">You</span>}
          </td>
          <td data-label="Role">{user.role}</td>
          <td data-label="Created">{formatDate(user.created_at)}</td>
          {onAction && (
            <td className="actions">
              <button type="button" className="small" onClick={() => onAction('role', user)}>
                Change role
              </button>
              {/* One's own password is changed from the account menu, proving the current one. */}
              {!isSelf(user) && (
                <button type="button" className="small" onClick={() => onAction('password', user)}>
                  Reset password
                </button>
              )}
              <button type="button" className="small danger" onClick={() => onAction('delete', user)}>
                Delete
              </button>
            </td>
          )}
        </tr>
      ))}
    </SystemTable>
  );
}
