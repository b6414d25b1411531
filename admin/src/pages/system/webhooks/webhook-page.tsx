import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../../api/client';
import { ErrorMessage, PageHeader, Progress, formatDate } from '../../../components/ui';
import { pluralLabel } from '../../../content-types';
import { useApi } from '../../../context';
import { DeliveryLog } from './delivery-log';
import { DeleteWebhookDialog, EditWebhookDialog, RotateSecretDialog, WEBHOOKS_PATH } from './endpoint-dialogs';
import { ORDERINGS, PAYLOADS, SCHEMES, autoRecoverWording, rateLimitText, rotationLabel } from './webhook-modes';
import { useWebhook, webhookKeys, withoutSecret, type WebhookEndpoint } from './webhook-queries';
import { EventList, StateBadge, failingWarningText, isWarned, lastDeliveryText, nextProbeText } from './webhook-status';

type EndpointDialog = 'edit' | 'rotate' | 'delete';

/** Settings › System › Webhooks › one endpoint: its settings, ping, secret rotation, deletion and delivery log. */
export function WebhookPage() {
  const { id = '' } = useParams();
  const endpointId = Number(id);
  const endpoint = useWebhook(endpointId);
  const ping = usePing(endpointId);
  const [dialog, setDialog] = useState<EndpointDialog>();
  const data = endpoint.data;
  const close = () => setDialog(undefined);
  return (
    <div className="webhook-page">
      <p className="webhook-back">
        <Link to={WEBHOOKS_PATH}>← All webhooks</Link>
      </p>
      <PageHeader title={data?.url ?? 'Webhook'}>
        {data && (
          <>
            <button type="button" className="primary" disabled={ping.isPending} onClick={() => ping.mutate()}>
              {ping.isPending ? 'Sending ping…' : 'Send ping'}
            </button>
            <button type="button" onClick={() => setDialog('edit')}>
              Edit
            </button>
            <button type="button" onClick={() => setDialog('rotate')}>
              {rotationLabel(data.signature_scheme)}
            </button>
            <button type="button" className="danger" onClick={() => setDialog('delete')}>
              Delete
            </button>
          </>
        )}
      </PageHeader>
      {!Number.isInteger(endpointId) || endpointId < 1 ? (
        <p className="message message-error" role="alert">
          “{id}” is not a webhook. Choose one from the list.
        </p>
      ) : (
        endpoint.isLoading && <Progress label="Loading the webhook…" />
      )}
      <ErrorMessage error={endpoint.error} />
      <ErrorMessage error={ping.error} />
      {ping.data && (
        <p className="message message-info" role="status">
          Ping sent as event <span className="mono">{ping.data.event_id}</span>. Its delivery is listed below.
        </p>
      )}
      {data && (
        <>
          {!data.active && <DisabledNotice endpoint={data} />}
          {isWarned(data) && (
            <p className="message message-warning webhook-warned" role="note">
              <strong>This endpoint is failing.</strong> {failingWarningText(data)} Check that its receiver answers,
              then send a ping.
            </p>
          )}
          <EndpointSummary endpoint={data} />
          <DeliveryLog endpoint={data} />
          <EditWebhookDialog endpoint={data} open={dialog === 'edit'} onClose={close} />
          <RotateSecretDialog endpoint={data} open={dialog === 'rotate'} onClose={close} />
          <DeleteWebhookDialog endpoint={data} open={dialog === 'delete'} onClose={close} />
        </>
      )}
    </div>
  );
}

function usePing(id: number) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/webhooks/{id}/ping', { params: { path: { id } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}

/** What a setting's value means, under its name. */
function Meaning({ text }: { text: string }) {
  return <span className="hint webhook-meaning">{text}</span>;
}

function EndpointSummary({ endpoint }: { endpoint: WebhookEndpoint }) {
  const graceEnds = endpoint.previous_secret_expires_at;
  return (
    <section className="panel" aria-labelledby="webhook-settings-heading">
      <h2 id="webhook-settings-heading">Settings</h2>
      <dl className="webhook-summary">
        <dt>Status</dt>
        <dd>
          <StateBadge endpoint={endpoint} />
        </dd>
        {endpoint.failing_since && (
          <>
            <dt>Failing since</dt>
            <dd>{formatDate(endpoint.failing_since)}</dd>
          </>
        )}
        {endpoint.warned_at && (
          <>
            <dt>Reported failing</dt>
            <dd>{formatDate(endpoint.warned_at)}</dd>
          </>
        )}
        {endpoint.next_probe_at && !endpoint.active && (
          <>
            <dt>Next test</dt>
            <dd>{formatDate(endpoint.next_probe_at)}</dd>
          </>
        )}
        <dt>Deliveries</dt>
        <dd>{lastDeliveryText(endpoint.last_delivery)}</dd>
        <dt>Events</dt>
        <dd>
          <EventList events={endpoint.events} />
        </dd>
        <dt>Only events about</dt>
        <dd>{endpoint.filter ? endpoint.filter.attachment_types.map(pluralLabel).join(', ') : 'Every type'}</dd>
        <dt>Description</dt>
        <dd>{endpoint.description ?? '—'}</dd>
        <dt>Signature scheme</dt>
        <dd>
          {SCHEMES[endpoint.signature_scheme].label}
          <span className="hint"> · changes with “{rotationLabel(endpoint.signature_scheme)}”</span>
          <Meaning text={SCHEMES[endpoint.signature_scheme].description} />
        </dd>
        <dt>Order of events</dt>
        <dd>
          {ORDERINGS[endpoint.ordering].label}
          <Meaning text={ORDERINGS[endpoint.ordering].description} />
        </dd>
        <dt>Content of events</dt>
        <dd>
          {PAYLOADS[endpoint.payload].label}
          <Meaning text={PAYLOADS[endpoint.payload].description} />
        </dd>
        <dt>Rate limit</dt>
        <dd>{rateLimitText(endpoint.rate_limit)}</dd>
        <dt>Recovery</dt>
        <dd>
          {autoRecoverWording(endpoint.auto_recover).label}
          <Meaning text={autoRecoverWording(endpoint.auto_recover).description} />
        </dd>
        {graceEnds && new Date(graceEnds).getTime() > Date.now() && (
          <>
            <dt>Previous secret</dt>
            <dd>Still signs too until {formatDate(graceEnds)}</dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatDate(endpoint.created_at)}</dd>
      </dl>
    </section>
  );
}

/** Why nothing is sent to the endpoint, and how to bring it back. */
function DisabledNotice({ endpoint }: { endpoint: WebhookEndpoint }) {
  const probe = nextProbeText(endpoint);
  const api = useApi();
  const queries = useQueryClient();
  const enable = useMutation({
    mutationFn: () =>
      unwrap(api.PATCH('/api/webhooks/{id}', { params: { path: { id: endpoint.id } }, body: { active: true } })),
    onSuccess: (enabled) => {
      queries.setQueryData(webhookKeys.one(endpoint.id), withoutSecret(enabled));
      void queries.invalidateQueries({ queryKey: webhookKeys.list });
    },
  });
  return (
    <div className="message message-warning webhook-disabled">
      <p>
        <strong>{endpoint.disabled_reason ? 'The service disabled this endpoint' : 'This endpoint is inactive'}</strong>
        {endpoint.disabled_reason && `: ${endpoint.disabled_reason.replace(/\.$/, '')}`}. Nothing is sent to it, and its
        new events are kept as skipped. Enable it, or use “Recover” in the delivery log to enable it and send again what
        it missed.
      </p>
      {probe && <p>{probe}</p>}
      <ErrorMessage error={enable.error} />
      <button type="button" disabled={enable.isPending} onClick={() => enable.mutate()}>
        {enable.isPending ? 'Enabling…' : 'Enable'}
      </button>
    </div>
  );
}
