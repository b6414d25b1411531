import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import { EmptyState, ErrorMessage, formatDate, PageHeader, Progress } from '../../../components/ui';
import { SystemTable } from '../system-table';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import {
  AddIntegrationDialog,
  DeleteIntegrationDialog,
  EditIntegrationDialog,
  RotateSecretDialog,
} from './integration-dialogs';

export type Integration = Schemas['Integration'];

type Open = { kind: 'add' } | { kind: 'edit' | 'rotate' | 'delete'; integration: Integration } | undefined;

/** Settings › System › Integrations: the other systems that use the API with an access key and a secret. */
export function IntegrationsPage() {
  const api = useApi();
  const integrations = useQuery({ queryKey: ['integrations'], queryFn: () => unwrap(api.GET('/api/integrations')) });
  const mayWrite = usePermissions().may('integration:write');
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const target = (kind: 'edit' | 'rotate' | 'delete') => (open?.kind === kind ? open.integration : undefined);
  return (
    <>
      <PageHeader title="Integrations">
        {mayWrite && (
          <button type="button" className="primary" onClick={() => setOpen({ kind: 'add' })}>
            Add integration
          </button>
        )}
      </PageHeader>
      <p className="page-intro">
        Another system signs in to the API with an integration&apos;s access key ID and secret access key (the client
        credentials grant) and may do what its role allows.
      </p>
      {integrations.isPending && <Progress label="Loading integrations…" />}
      <ErrorMessage error={integrations.error} />
      {integrations.data?.length === 0 && (
        <EmptyState title="No integrations yet">
          {mayWrite &&
            'Choose “Add integration”, give it a label and a role, then copy its access key ID and secret access key ' +
              'into the system that will use the API.'}
        </EmptyState>
      )}
      {!!integrations.data?.length && (
        <IntegrationsTable
          integrations={integrations.data}
          onAction={mayWrite ? (kind, integration) => setOpen({ kind, integration }) : undefined}
        />
      )}
      <AddIntegrationDialog open={open?.kind === 'add'} onClose={close} />
      <EditIntegrationDialog integration={target('edit')} onClose={close} />
      <RotateSecretDialog integration={target('rotate')} onClose={close} />
      <DeleteIntegrationDialog integration={target('delete')} onClose={close} />
    </>
  );
}

function IntegrationsTable({
  integrations,
  onAction,
}: {
  integrations: Integration[];
  /** Absent when the signed-in account may only read. */
  onAction?: (kind: 'edit' | 'rotate' | 'delete', integration: Integration) => void;
}) {
  const toggle = useToggleActive();
  const busy = (integration: Integration) => toggle.isPending && toggle.variables?.id === integration.id;
  return (
    <>
      <ErrorMessage error={toggle.error} />
      <SystemTable columns={['Label', 'Access key ID', 'Role', 'Status', 'Last used']} actions={!!onAction}>
        {integrations.map((integration) => (
          <tr key={integration.id}>
            <td data-label="Label">
              <strong>{integration.label}</strong>
            </td>
            <td data-label="Access key ID" className="mono nowrap">
              {integration.access_key_id}
            </td>
            <td data-label="Role" className="nowrap">
              {integration.role}
            </td>
            <td data-label="Status">
              <IntegrationStatus integration={integration} />
            </td>
            <td data-label="Last used">{integration.last_used_at ? formatDate(integration.last_used_at) : 'Never'}</td>
            {onAction && (
              <td className="actions">
                <button type="button" className="small" onClick={() => onAction('edit', integration)}>
                  Edit
                </button>
                <button type="button" className="small" onClick={() => onAction('rotate', integration)}>
                  Rotate secret
                </button>
                <button
                  type="button"
                  className="small"
                  disabled={busy(integration)}
                  onClick={() => toggle.mutate({ id: integration.id, active: !integration.active })}
                >
                  {busy(integration) ? 'Saving…' : integration.active ? 'Deactivate' : 'Activate'}
                </button>
                <button type="button" className="small danger" onClick={() => onAction('delete', integration)}>
                  Delete
                </button>
              </td>
            )}
          </tr>
        ))}
      </SystemTable>
    </>
  );
}

/** Active, inactive or expired; and how long a rotated-out secret keeps working. */
function IntegrationStatus({ integration }: { integration: Integration }) {
  const expired = integration.expires_at !== null && Date.parse(integration.expires_at) <= Date.now();
  const [label, tone] = !integration.active ? ['Inactive', 'off'] : expired ? ['Expired', 'off'] : ['Active', 'ok'];
  return (
    <>
      <span className={`badge ${tone}`}>{label}</span>
      {integration.previous_secret_active && (
        <span className="hint cell-note">
          Previous secret works until {formatDate(integration.previous_secret_expires_at)}
        </span>
      )}
    </>
  );
}

/** Deactivation ends the integration's tokens at once; activation lets it obtain new ones. */
function useToggleActive() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      unwrap(api.PATCH('/api/integrations/{id}', { params: { path: { id } }, body: { active } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['integrations'] }),
  });
}
