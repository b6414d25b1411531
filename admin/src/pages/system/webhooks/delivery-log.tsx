import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../../api/client';
import { Pager } from '../../../components/pager';
import { EmptyState, ErrorMessage, Progress } from '../../../components/ui';
import { useApi } from '../../../context';
import { DeliveryFilters, filtered } from './delivery-filters';
import { DeliveryRows } from './delivery-rows';
import { RecoverDialog } from './recover-dialog';
import {
  DELIVERIES_PER_PAGE,
  PENDING_POLL_MS,
  useWebhookDeliveries,
  webhookKeys,
  type DeliveryFilter,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './webhook-queries';

/** The endpoint's deliveries, newest first, each with its attempts; redelivery, recovery, refresh and paging. */
export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [filter, setFilter] = useState<DeliveryFilter>({});
  const [offset, setOffset] = useState(0);
  const [recovering, setRecovering] = useState(false);
  const deliveries = useWebhookDeliveries(endpoint.id, { offset, ...filter });
  const redeliver = useRedeliver(endpoint.id);
  const page = deliveries.data;
  const polling = page?.items.some((delivery) => delivery.status === 'pending');
  return (
    <section className="panel" aria-labelledby="deliveries-heading">
      <div className="webhook-section-header">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div className="webhook-toolbar">
          <DeliveryFilters
            value={filter}
            onChange={(changed) => {
              setFilter(changed);
              setOffset(0);
            }}
          />
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
        <EmptyState title={filtered(filter) ? 'No delivery matches' : 'No deliveries yet'}>
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
        <Pager offset={offset} limit={DELIVERIES_PER_PAGE} total={page.total} onOffset={setOffset} />
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

/** What the one new attempt of a redelivery did. */
function redeliveryOutcome(delivery: WebhookDelivery): string {
  const answer = delivery.last_status_code !== null ? ` (HTTP ${delivery.last_status_code})` : '';
  if (delivery.status === 'succeeded') return `Redelivered ${delivery.event_id}: it succeeded${answer}.`;
  if (delivery.status === 'pending') return `Redelivery of ${delivery.event_id} is under way.`;
  const error = delivery.last_error ? `: ${delivery.last_error}` : '';
  return `Redelivered ${delivery.event_id}: it ${delivery.status}${answer}${error}.`;
}
