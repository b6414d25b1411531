import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { unwrap } from '../../../api/client';
import { EmptyState, ErrorMessage, Progress, formatDate } from '../../../components/ui';
import { useApi } from '../../../context';
import { RecoverDialog } from './recover-dialog';
import {
  DELIVERIES_PER_PAGE,
  PENDING_POLL_MS,
  useWebhookDeliveries,
  webhookKeys,
  type DeliveryStatus,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './webhook-queries';

const STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'skipped'];
const STATUS_BADGE: Record<DeliveryStatus, string> = {
  pending: 'webhook-pending',
  succeeded: 'ok',
  failed: 'off',
  skipped: '',
};
const COLUMNS = 6;

/** The endpoint's deliveries, newest first, each with its attempts; redelivery, recovery, refresh and paging. */
export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [status, setStatus] = useState<DeliveryStatus | undefined>();
  const [offset, setOffset] = useState(0);
  const [recovering, setRecovering] = useState(false);
  const deliveries = useWebhookDeliveries(endpoint.id, { offset, status });
  const redeliver = useRedeliver(endpoint.id);
  const page = deliveries.data;
  const polling = page?.items.some((delivery) => delivery.status === 'pending');
  return (
    <section className="panel" aria-labelledby="deliveries-heading">
      <div className="webhook-section-header">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div className="webhook-toolbar">
          <label className="webhook-inline-field">
            <span>Status</span>
            <select
              value={status ?? ''}
              onChange={(event) => {
                setStatus((event.target.value || undefined) as DeliveryStatus | undefined);
                setOffset(0);
              }}
            >
              <option value="">All</option>
              {STATUSES.map((value) => (
                <option key={value} value={value}>
                  {capitalized(value)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => void deliveries.refetch()}>
            Refresh
          </button>
          <button type="button" onClick={() => setRecovering(true)}>
            Recover
          </button>
        </div>
      </div>
      {polling && (
        <p className="hint">Some deliveries are pending: this list updates every {PENDING_POLL_MS / 1000} seconds.</p>
      )}
      {deliveries.isLoading && <Progress label="Loading deliveries…" />}
      <ErrorMessage error={deliveries.error} />
      <ErrorMessage error={redeliver.error} />
      {redeliver.data && (
        <p className="message message-info" role="status">
          {redeliveryOutcome(redeliver.data)}
        </p>
      )}
      {page && page.items.length === 0 && (
        <EmptyState title={status ? `No ${status} deliveries` : 'No deliveries yet'}>
          Each event this endpoint subscribes to is listed here with its attempts. Use “Send ping” to try it now.
        </EmptyState>
      )}
      {page && page.items.length > 0 && (
        <table className="table webhook-deliveries">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Event</th>
              <th scope="col">Created</th>
              <th scope="col">Attempts</th>
              <th scope="col">Next attempt</th>
              <th scope="col">
                <span className="webhook-sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((delivery) => (
              <DeliveryRows
                key={delivery.id}
                delivery={delivery}
                redelivering={redeliver.isPending && redeliver.variables === delivery.id}
                onRedeliver={() => redeliver.mutate(delivery.id)}
              />
            ))}
          </tbody>
        </table>
      )}
      {page && page.total > DELIVERIES_PER_PAGE && (
        <nav className="pager" aria-label="Delivery pages">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(offset - DELIVERIES_PER_PAGE)}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + DELIVERIES_PER_PAGE, page.total)} of {page.total}
          </span>
          <button
            type="button"
            disabled={offset + DELIVERIES_PER_PAGE >= page.total}
            onClick={() => setOffset(offset + DELIVERIES_PER_PAGE)}
          >
            Next
          </button>
        </nav>
      )}
      <RecoverDialog endpoint={endpoint} open={recovering} onClose={() => setRecovering(false)} />
    </section>
  );
}

function useRedeliver(endpointId: number) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      unwrap(
        api.POST('/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: endpointId, deliveryId } },
        }),
      ),
    onSuccess: () => queries.invalidateQueries({ queryKey: webhookKeys.deliveries(endpointId) }),
  });
}

/** A delivery's row and, when expanded, the row of its attempts under it. */
function DeliveryRows({
  delivery,
  redelivering,
  onRedeliver,
}: {
  delivery: WebhookDelivery;
  redelivering: boolean;
  onRedeliver: () => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = `delivery-${delivery.id}-attempts`;
  return (
    <Fragment>
      <tr>
        <td data-label="Status">
          <span className={`badge ${STATUS_BADGE[delivery.status]}`}>{capitalized(delivery.status)}</span>{' '}
          {delivery.last_status_code !== null && (
            <span className="webhook-muted">HTTP {delivery.last_status_code}</span>
          )}
        </td>
        <td data-label="Event">
          <span className="webhook-event-kind">{delivery.event}</span>
          <span className="mono webhook-muted webhook-event-id">{delivery.event_id}</span>
        </td>
        <td data-label="Created">{formatDate(delivery.created_at)}</td>
        <td data-label="Attempts">{delivery.attempts}</td>
        <td data-label="Next attempt">{formatDate(delivery.next_attempt_at)}</td>
        <td className="actions">
          <button
            type="button"
            className="small"
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={() => setExpanded(!expanded)}
          >
            Details
          </button>
          <button type="button" className="small" disabled={redelivering} onClick={onRedeliver}>
            {redelivering ? 'Redelivering…' : 'Redeliver'}
          </button>
        </td>
      </tr>
      <tr id={detailsId} className="webhook-attempts-row" hidden={!expanded}>
        <td colSpan={COLUMNS}>{expanded && <AttemptLog delivery={delivery} />}</td>
      </tr>
    </Fragment>
  );
}

function AttemptLog({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempt_log.length === 0) {
    return (
      <p className="hint">
        {delivery.attempts === 0
          ? 'No attempt yet.'
          : `No attempt is kept any more (the log is pruned after its retention period). Last error: ${delivery.last_error ?? 'none'}.`}
      </p>
    );
  }
  return (
    <ol className="webhook-attempts" aria-label={`Attempts of ${delivery.event_id}`}>
      {delivery.attempt_log.map((attempt, index) => (
        <li key={`${attempt.attempted_at}-${index}`}>
          <Attempt attempt={attempt} number={index + 1} />
        </li>
      ))}
    </ol>
  );
}

function Attempt({ attempt, number }: { attempt: WebhookAttempt; number: number }) {
  const succeeded = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <>
      <p className="webhook-attempt-summary">
        <strong>Attempt {number}</strong> · {formatDate(attempt.attempted_at)} ·{' '}
        <span className={`badge ${succeeded ? 'ok' : 'off'}`}>
          {attempt.status_code === null ? 'No answer' : `HTTP ${attempt.status_code}`}
        </span>{' '}
        · {attempt.duration_ms} ms
      </p>
      {attempt.error && <p className="webhook-attempt-error">{attempt.error}</p>}
      {attempt.response_body !== null && attempt.response_body !== '' && (
        <>
          <p className="hint">Response (first 2 KiB)</p>
          <pre className="webhook-excerpt">{attempt.response_body}</pre>
        </>
      )}
    </>
  );
}

/** What the one new attempt of a redelivery did. */
function redeliveryOutcome(delivery: WebhookDelivery): string {
  const answer = delivery.last_status_code !== null ? ` (HTTP ${delivery.last_status_code})` : '';
  if (delivery.status === 'succeeded') return `Redelivered ${delivery.event_id}: it succeeded${answer}.`;
  if (delivery.status === 'pending') return `Redelivery of ${delivery.event_id} is under way.`;
  const error = delivery.last_error ? `: ${delivery.last_error}` : '';
  return `Redelivered ${delivery.event_id}: it ${delivery.status}${answer}${error}.`;
}

const capitalized = (text: string) => text[0].toUpperCase() + text.slice(1);
