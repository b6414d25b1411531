import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import type { ListColumn } from '../../../components/lists/data-table';
import { ListView } from '../../../components/lists/list-view';
import { listQuery, useListParams } from '../../../components/lists/use-list-params';
import { formatDate, PageHeader } from '../../../components/ui';
import { useApi } from '../../../context';
import { capitalized, permissionsInWords } from '../../../permission-words';
import { usePermissions } from '../../../permissions';
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
  const [params, setParams] = useListParams();
  const clients = useQuery({
    queryKey: [...OAUTH_CLIENTS_KEY, params],
    queryFn: () =>
      unwrap(
        api.GET('/api/oauth/clients', { params: { query: listQuery<Schemas['OAuthClientSort']>(params, PAGE_SIZE) } }),
      ),
    placeholderData: keepPreviousData,
  });
  const mayWrite = usePermissions().may('oauth-client:write');
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const target = (kind: Action) => (open?.kind === kind ? open.client : undefined);
  const actions = (client: OAuthClient) => (
    <>
      <button type="button" className="small" onClick={() => setOpen({ kind: 'edit', client })}>
        Edit
      </button>
      {!client.public && (
        <button type="button" className="small" onClick={() => setOpen({ kind: 'rotate', client })}>
          Rotate secret
        </button>
      )}
      <button type="button" className="small danger" onClick={() => setOpen({ kind: 'delete', client })}>
        Delete
      </button>
    </>
  );
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
      <ListView
        label="Applications"
        search="Search applications"
        query={clients}
        params={params}
        onParams={setParams}
        columns={COLUMNS}
        rowKey={(client) => client.client_id}
        actions={mayWrite ? actions : undefined}
        empty={{
          title: 'No applications yet',
          hint: mayWrite && 'Choose “Add application”, name it and give the addresses it receives sign-ins at.',
        }}
      />
      <AddOAuthClientDialog open={open?.kind === 'add'} onClose={close} />
      <EditOAuthClientDialog client={target('edit')} onClose={close} />
      <RotateOAuthClientSecretDialog client={target('rotate')} onClose={close} />
      <DeleteOAuthClientDialog client={target('delete')} onClose={close} />
    </>
  );
}

const COLUMNS: ListColumn<OAuthClient>[] = [
  // The client id under the name, as on Connected applications: a column of its own left the URIs and permissions
  // a few letters wide at 1280 px.
  {
    id: 'name',
    header: 'Name',
    sort: 'name',
    cell: (client) => (
      <>
        <strong>{client.name}</strong>
        <span className="hint cell-hint mono">{client.client_id}</span>
      </>
    ),
  },
  { id: 'type', header: 'Type', cell: (client) => (client.public ? 'Public' : 'Confidential') },
  {
    id: 'redirect_uris',
    header: 'Redirect URIs',
    className: 'mono uri-list',
    cell: (client) =>
      client.redirect_uris.map((uri) => (
        <div key={uri}>
          <SlashBreaks text={uri} />
        </div>
      )),
  },
  { id: 'scopes', header: 'Permissions', cell: (client) => <ClientPermissions client={client} /> },
  {
    id: 'created_at',
    header: 'Created',
    sort: 'created_at',
    className: 'nowrap',
    cell: (client) => formatDate(client.created_at),
  },
];

/** What the application may do in words, and what it gets when it asks for nothing in particular, if less. */
function ClientPermissions({ client }: { client: OAuthClient }) {
  const { scopes, default_scopes: defaults } = client;
  const narrower = [...defaults].sort().join(' ') !== [...scopes].sort().join(' ');
  return (
    <>
      <span title={scopes.join(' ')}>{capitalized(permissionsInWords(scopes))}</span>
      {narrower && <span className="hint cell-hint">By default: {permissionsInWords(defaults)}</span>}
    </>
  );
}

/** A URL that a narrow column breaks after a slash (not inside `//`) rather than letter by letter. */
function SlashBreaks({ text }: { text: string }) {
  return text.split(/(?<=\/)(?!\/)/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
