import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ListColumn } from '../../../components/lists/data-table';
import { ListView } from '../../../components/lists/list-view';
import { useListParams } from '../../../components/lists/use-list-params';
import { PageHeader } from '../../../components/ui';
import { AddWebhookDialog, WEBHOOKS_PATH } from './endpoint-dialogs';
import { SigningKeysPanel } from './signing-keys';
import { SCHEMES } from './webhook-modes';
import { useWebhooks, type WebhookEndpoint } from './webhook-queries';
import { DeliveryModes, EventList, Health } from './webhook-status';

/**
 * The columns of the list. Endpoints may share a URL: the scheme and the description tell them apart, and the health
 * column says which of them works (and warns of one the service is about to disable); how each is sent to, in words.
 */
const COLUMNS: ListColumn<WebhookEndpoint>[] = [
  {
    id: 'url',
    header: 'URL',
    sort: 'url',
    className: 'webhook-url',
    cell: (endpoint) => <Link to={`${WEBHOOKS_PATH}/${endpoint.id}`}>{endpoint.url}</Link>,
  },
  { id: 'scheme', header: 'Signature', cell: (endpoint) => SCHEMES[endpoint.signature_scheme].label },
  { id: 'events', header: 'Events', cell: (endpoint) => <EventList events={endpoint.events} /> },
  { id: 'delivery', header: 'Delivery', cell: (endpoint) => <DeliveryModes endpoint={endpoint} /> },
  { id: 'health', header: 'Health', cell: (endpoint) => <Health endpoint={endpoint} /> },
  { id: 'description', header: 'Description', sort: 'description', cell: (endpoint) => endpoint.description ?? '—' },
];

/**
 * Settings › System › Webhooks: the registered endpoints (searched, sorted, a page at a time), registration, and the
 * public keys of the public-key signatures.
 */
export function WebhooksPage() {
  const [params, setParams] = useListParams();
  const webhooks = useWebhooks(params);
  const [adding, setAdding] = useState(false);
  const notice = useNotice();
  return (
    <>
      <PageHeader title="Webhooks">
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Add webhook
        </button>
      </PageHeader>
      <p className="webhook-intro">
        The service sends a signed POST request to each of these URLs when files are added, replaced, reordered or
        deleted.
      </p>
      {notice && (
        <p className="message message-info" role="status">
          {notice}
        </p>
      )}
      <ListView
        label="Webhooks"
        search="Search URLs and descriptions"
        query={webhooks}
        params={params}
        onParams={setParams}
        columns={COLUMNS}
        rowKey={(endpoint) => endpoint.id}
        empty={{
          title: 'No webhooks yet',
          hint: 'Add a webhook to have the service notify another system of every change to the files.',
        }}
      />
      <SigningKeysPanel />
      <AddWebhookDialog open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

/** A message another page left in the navigation (e.g. "deleted"), shown once: a reload does not bring it back. */
function useNotice(): string | undefined {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice] = useState((location.state as { notice?: string } | null)?.notice);
  useEffect(() => {
    if (notice) void navigate('.', { replace: true, state: null });
  }, [notice, navigate]);
  return notice;
}
