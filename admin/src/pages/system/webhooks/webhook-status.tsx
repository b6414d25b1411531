import { formatDate } from '../../../components/ui';
import { ALL_EVENTS, type WebhookEndpoint } from './webhook-queries';

/** "All events" for `*`, else each kind on its own line. */
export function EventList({ events }: { events: string[] }) {
  if (events.includes(ALL_EVENTS)) return <>All events</>;
  return (
    <ul className="webhook-events">
      {events.map((event) => (
        <li key={event} className="mono">
          {event}
        </li>
      ))}
    </ul>
  );
}

/** Whether anything is sent to the endpoint, and whether that works. */
export function StateBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.active)
    return <span className="badge off">{endpoint.disabled_reason ? 'Disabled by the service' : 'Inactive'}</span>;
  if (endpoint.failing_since) return <span className="badge warn">Failing</span>;
  return <span className="badge ok">Active</span>;
}

/** How the latest delivery that ended went, and when. */
export function lastDeliveryText(last: WebhookEndpoint['last_delivery']): string {
  if (!last) return 'No delivery yet';
  return `Last delivery ${last.status === 'succeeded' ? 'succeeded' : 'failed'} ${formatDate(last.at)}`;
}

/** The endpoint's state, why the service disabled it, since when it fails, and its last delivery. */
export function Health({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <div className="webhook-health">
      <StateBadge endpoint={endpoint} />
      {endpoint.disabled_reason && <p className="hint">{endpoint.disabled_reason}</p>}
      {endpoint.failing_since && <p className="webhook-failing">Failing since {formatDate(endpoint.failing_since)}</p>}
      <p className="hint">{lastDeliveryText(endpoint.last_delivery)}</p>
    </div>
  );
}
