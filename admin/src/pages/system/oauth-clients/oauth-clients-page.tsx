import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../../api/client';
import { EmptyState, ErrorMessage, formatDate, PageHeader, Progress } from '../../../components/ui';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import { Pager } from '../../../components/pager';
import { SystemTable } from '../system-table';
import {
  AddOAuthClientDialog,
  DeleteOAuthClientDialog,
  EditOAuthClientDialog,
  RotateOAuthClientSecretDialog,
} from './oauth-client-dialogs';
import { OAUTH_CLIENTS_KEY, type OAuthClient } from './oauth-clients-api';

const PAGE_SIZE = 20;

type Action = 'edit' | 'rotate' | 'delete';
type Open = { kind: 'add' } | { kind: Action; client: OAuthClient } | undefined;

/**
 * Settings › System › Applications: web and native apps that sign people in through the service's sign-in page
 * (authorization code with PKCE). The administration interface itself is built in and not listed.
 */
export function OAuthClientsPage() {
  const api = useApi();
  const [offset, setOffset] = useState(0);
  const clients = useQuery({
    queryKey: [...OAUTH_CLIENTS_KEY, offset],
    queryFn: () => unwrap(api.GET('/api/oauth/clients', { params: { query: { limit: PAGE_SIZE, offset } } })),
    placeholderData: keepPreviousData,
  });
  const mayWrite = usePermissions().may('oauth-client:write');
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const target = (kind: Action) => (open?.kind === kind ? open.client : undefined);
  return (
    <>
      <PageHeader title="Applications">
        {mayWrite && (
          <button type="button" className="primary" onClick={() => setOpen({ kind: 'add' })}>
            Add application
          </button>
        )}
      </PageHeader>
      <p className="page-intro">
        An application sends people to this service&apos;s sign-in page and gets a token for what they may do, never
        more. A confidential application (a server) also proves itself with a secret; a public one (a browser or mobile
        app) cannot keep one.
      </p>
      {clients.isPending && <Progress label="Loading applications…" />}
      <ErrorMessage error={clients.error} />
      {clients.data?.total === 0 && (
        <EmptyState title="No applications yet">
          {mayWrite && 'Choose “Add application”, name it and give the addresses it receives sign-ins at.'}
        </EmptyState>
      )}
      {!!clients.data?.items.length && (
        <>
          <OAuthClientsTable
            clients={clients.data.items}
            onAction={mayWrite ? (kind, client) => setOpen({ kind, client }) : undefined}
          />
          <Pager offset={offset} limit={PAGE_SIZE} total={clients.data.total} onOffset={setOffset} />
        </>
      )}
      <AddOAuthClientDialog open={open?.kind === 'add'} onClose={close} />
      <EditOAuthClientDialog client={target('edit')} onClose={close} />
      <RotateOAuthClientSecretDialog client={target('rotate')} onClose={close} />
      <DeleteOAuthClientDialog client={target('delete')} onClose={close} />
    </>
  );
}

function OAuthClientsTable({
  clients,
  onAction,
}: {
  clients: OAuthClient[];
  /** Absent when the signed-in account may only read. */
  onAction?: (kind: Action, client: OAuthClient) => void;
}) {
  return (
    <SystemTable columns={['Name', 'Client ID', 'Type', 'Redirect URIs', 'Created']} actions={!!onAction}>
      {clients.map((client) => (
        <tr key={client.client_id}>
          <td data-label="Name">
            <strong>{client.name}</strong>
          </td>
          <td data-label="Client ID" className="mono nowrap">
            {client.client_id}
          </td>
          <td data-label="Type">{client.public ? 'Public' : 'Confidential'}</td>
          <td data-label="Redirect URIs" className="mono">
            {client.redirect_uris.map((uri) => (
              <div key={uri}>{uri}</div>
            ))}
          </td>
          <td data-label="Created" className="nowrap">
            {formatDate(client.created_at)}
          </td>
          {onAction && (
            <td className="actions">
              <button type="button" className="small" onClick={() => onAction('edit', client)}>
                Edit
              </button>
              {!client.public && (
                <button type="button" className="small" onClick={() => onAction('rotate', client)}>
                  Rotate secret
                </button>
              )}
              <button type="button" className="small danger" onClick={() => onAction('delete', client)}>
                Delete
              </button>
            </td>
          )}
        </tr>
      ))}
    </SystemTable>
  );
}
