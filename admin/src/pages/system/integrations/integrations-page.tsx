import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import { ErrorMessage, formatDate, PageHeader } from '../../../components/ui';
import type { ListColumn } from '../../../components/lists/data-table';
import { ListView } from '../../../components/lists/list-view';
import { listQuery, useListParams } from '../../../components/lists/use-list-params';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import {
  AddIntegrationDialog,
  DeleteIntegrationDialog,
  EditIntegrationDialog,
  RotateSecretDialog,
  type Integration,
} from './integration-dialogs';

type Open = { kind: 'add' } | { kind: 'edit' | 'rotate' | 'delete'; integration: Integration } | undefined;

const PAGE_SIZE = 20;

/** Every page of the list, refetched after each change. */
const INTEGRATIONS_KEY = ['integrations'];

/** Settings › System › Integrations: the other systems that use the API with an access key and a secret. */
export function IntegrationsPage() {
  const api = useApi();
  const [params, setParams] = useListParams();
  const integrations = useQuery({
    queryKey: [...INTEGRATIONS_KEY, params],
    queryFn: () =>
      unwrap(
        api.GET('/api/integrations', { params: { query: listQuery<Schemas['IntegrationSort']>(params, PAGE_SIZE) } }),
      ),
    placeholderData: keepPreviousData,
  });
  const mayWrite = usePermissions().may('integration:write');
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const target = (kind: 'edit' | 'rotate' | 'delete') => (open?.kind === kind ? open.integration : undefined);
  const toggle = useToggleActive();
  const busy = (integration: Integration) => toggle.isPending && toggle.variables?.id === integration.id;
  const actions = (integration: Integration) => (
    <>
      <button type="button" className="small" onClick={() => setOpen({ kind: 'edit', integration })}>
        Edit
      </button>
      <button type="button" className="small" onClick={() => setOpen({ kind: 'rotate', integration })}>
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
      <button type="button" className="small danger" onClick={() => setOpen({ kind: 'delete', integration })}>
        Delete
      </button>
    </>
  );
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
      <ErrorMessage error={toggle.error} />
      <ListView
        label="Integrations"
        search="Search integrations"
        query={integrations}
        params={params}
        onParams={setParams}
        columns={COLUMNS}
        rowKey={(integration) => integration.id}
        actions={mayWrite ? actions : undefined}
        empty={{
          title: 'No integrations yet',
          hint:
            mayWrite &&
            'Choose “Add integration”, give it a label and a role, then copy its access key ID and secret access key ' +
              'into the system that will use the API.',
        }}
      />
      <AddIntegrationDialog open={open?.kind === 'add'} onClose={close} />
      <EditIntegrationDialog integration={target('edit')} onClose={close} />
      <RotateSecretDialog integration={target('rotate')} onClose={close} />
      <DeleteIntegrationDialog integration={target('delete')} onClose={close} />
    </>
  );
}

const COLUMNS: ListColumn<Integration>[] = [
  { id: 'label', header: 'Label', sort: 'label', cell: (integration) => <strong>{integration.label}</strong> },
  {
    id: 'access_key_id',
    header: 'Access key ID',
    className: 'mono nowrap',
    cell: (integration) => integration.access_key_id,
  },
  { id: 'role', header: 'Role', className: 'nowrap', cell: (integration) => integration.role },
  { id: 'status', header: 'Status', cell: (integration) => <IntegrationStatus integration={integration} /> },
  {
    id: 'last_used_at',
    header: 'Last used',
    sort: 'last_used_at',
    cell: (integration) => (integration.last_used_at ? formatDate(integration.last_used_at) : 'Never'),
  },
  {
    id: 'created_at',
    header: 'Created',
    sort: 'created_at',
    cell: (integration) => formatDate(integration.created_at),
  },
];

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
    onSuccess: () => queries.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
}
