import { useState } from 'react';
import type { ListColumn } from '../../components/lists/data-table';
import { ListView } from '../../components/lists/list-view';
import { useListParams } from '../../components/lists/use-list-params';
import { ConfirmDialog, formatDate, PageHeader } from '../../components/ui';
import { capitalized, permissionsInWords } from '../../permission-words';
import { useGrants, useRevokeGrant, type Grant } from './connected-apps-api';

/**
 * Account › Connected applications: the applications the signed-in person allowed, on the service's consent page,
 * to act for them, with what they allowed each; "Revoke" ends the consent and the application's sign-ins.
 */
export function ConnectedAppsPage() {
  const [params, setParams] = useListParams();
  const grants = useGrants(params.offset);
  const [revoking, setRevoking] = useState<Grant>();
  return (
    <>
      <PageHeader title="Connected applications" />
      <p className="page-intro">
        Applications you allowed to act for you when you signed in there. Each may do only what you allowed, and never
        more than your role. Revoke one to sign it out at once; it asks you again the next time you sign in there.
      </p>
      <ListView
        label="Connected applications"
        query={grants}
        params={params}
        onParams={setParams}
        columns={COLUMNS}
        rowKey={(grant) => grant.client_id}
        actions={(grant) => (
          <button type="button" className="small danger" onClick={() => setRevoking(grant)}>
            Revoke
          </button>
        )}
        empty={{
          title: 'No connected applications',
          hint: 'When an application asks to act for you and you allow it, it is listed here.',
        }}
      />
      <RevokeDialog grant={revoking} onClose={() => setRevoking(undefined)} />
    </>
  );
}

const COLUMNS: ListColumn<Grant>[] = [
  {
    id: 'client_name',
    header: 'Application',
    cell: (grant) => (
      <>
        <strong>{grant.client_name}</strong>
        <span className="hint cell-hint mono">{grant.client_id}</span>
      </>
    ),
  },
  { id: 'redirect_host', header: 'Signs in at', className: 'mono', cell: (grant) => grant.redirect_host },
  {
    id: 'scopes',
    header: 'May',
    cell: (grant) => <span title={grant.scopes.join(' ')}>{capitalized(permissionsInWords(grant.scopes))}</span>,
  },
  { id: 'granted_at', header: 'Allowed', className: 'nowrap', cell: (grant) => formatDate(grant.granted_at) },
];

function RevokeDialog({ grant, onClose }: { grant?: Grant; onClose: () => void }) {
  const revoke = useRevokeGrant();
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      title="Revoke access"
      open={grant !== undefined}
      confirmLabel="Revoke"
      busy={revoke.isPending}
      error={revoke.error}
      onConfirm={() => grant && revoke.mutate(grant.client_id, { onSuccess: close })}
      onCancel={close}
    >
      <p>
        Revoke the access of <strong>{grant?.client_name}</strong>? It can no longer act for you, and you are signed out
        of it at once. It asks for your consent again the next time you sign in there.
      </p>
    </ConfirmDialog>
  );
}
