import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import type { ListColumn } from '../../../components/lists/data-table';
import { ListView } from '../../../components/lists/list-view';
import { listQuery, useListParams } from '../../../components/lists/use-list-params';
import { formatDate, PageHeader } from '../../../components/ui';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import { AddUserDialog, ChangeRoleDialog, DeleteUserDialog, ResetPasswordDialog, type User } from './user-dialogs';

type Action = 'role' | 'password' | 'delete';
type Open = { kind: 'add' } | { kind: Action; user: User } | undefined;

const PAGE_SIZE = 20;

/** Settings › System › Users: who signs in to this interface, with which role (changes need user:write). */
export function UsersPage() {
  const api = useApi();
  const [params, setParams] = useListParams();
  const users = useQuery({
    queryKey: ['users', params],
    queryFn: () =>
      unwrap(api.GET('/api/users', { params: { query: listQuery<Schemas['UserSort']>(params, PAGE_SIZE) } })),
    placeholderData: keepPreviousData,
  });
  const { me: account, may } = usePermissions();
  const me = account.data;
  const mayWrite = may('user:write');
  const isSelf = (user?: User) => me?.kind === 'user' && me.id === user?.id;
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const target = (kind: Action) => (open?.kind === kind ? open.user : undefined);
  const columns = useMemo(() => columnsFor(me?.kind === 'user' ? me.id : undefined), [me?.kind, me?.id]);
  const actions = (user: User) => (
    <>
      <button type="button" className="small" onClick={() => setOpen({ kind: 'role', user })}>
        Change role
      </button>
      {/* One's own password is changed from the account menu, proving the current one. */}
      {!isSelf(user) && (
        <button type="button" className="small" onClick={() => setOpen({ kind: 'password', user })}>
          Reset password
        </button>
      )}
      <button type="button" className="small danger" onClick={() => setOpen({ kind: 'delete', user })}>
        Delete
      </button>
    </>
  );
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
      <ListView
        label="Users"
        search="Search users"
        query={users}
        params={params}
        onParams={setParams}
        columns={columns}
        rowKey={(user) => user.id}
        actions={mayWrite ? actions : undefined}
        empty={{ title: 'No users yet', hint: mayWrite && 'Choose “Add user” to let a person sign in here.' }}
      />
      <AddUserDialog open={open?.kind === 'add'} onClose={close} />
      <ChangeRoleDialog user={target('role')} onClose={close} />
      <ResetPasswordDialog user={target('password')} onClose={close} />
      <DeleteUserDialog user={target('delete')} isSelf={isSelf(target('delete'))} onClose={close} />
    </>
  );
}

/** The columns, the signed-in user's row marked "You". */
function columnsFor(selfId: number | undefined): ListColumn<User>[] {
  return [
    {
      id: 'username',
      header: 'Username',
      sort: 'username',
      cell: (user) => (
        <>
          <strong>{user.username}</strong> {user.id === selfId && <span className="badge">You</span>}
        </>
      ),
    },
    { id: 'role', header: 'Role', cell: (user) => user.role },
    { id: 'created_at', header: 'Created', sort: 'created_at', cell: (user) => formatDate(user.created_at) },
  ];
}
