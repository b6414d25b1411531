import { formatDate } from '../../../components/ui';
import { ORDERINGS, PAYLOADS, autoRecoverWording, rateLimitText } from './webhook-modes';
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

/**
 * Whether the service has reported the endpoint failing (after WEBHOOK_WARN_AFTER) and will disable it if it keeps
 * failing. When exactly is failing_since + WEBHOOK_DISABLE_AFTER, a setting the API does not tell.
 */
export const isWarned = (endpoint: WebhookEndpoint): boolean => endpoint.active && endpoint.warned_at !== null;

/** "Failing since …: it will be disabled if it keeps failing", for an endpoint the service has warned about. */
export function failingWarningText(endpoint: WebhookEndpoint): string {
  const since = formatDate(endpoint.failing_since ?? endpoint.warned_at);
  return `Failing since ${since}: the service will disable it if it keeps failing.`;
}

/** When a disabled endpoint that re-enables itself is tried next. */
export const nextProbeText = (endpoint: WebhookEndpoint): string | undefined =>
  !endpoint.active && endpoint.next_probe_at
    ? `Next test ${formatDate(endpoint.next_probe_at)}: enabled again by itself once it answers.`
    : undefined;

/** The endpoint's state, why the service disabled it, since when it fails, and its last delivery. */
export function Health({ endpoint }: { endpoint: WebhookEndpoint }) {
  const probe = nextProbeText(endpoint);
  return (
    <div className="webhook-health">
      <StateBadge endpoint={endpoint} />
      {endpoint.disabled_reason && <p className="hint">{endpoint.disabled_reason}</p>}
      {isWarned(endpoint) ? (
        <p className="webhook-warning">
          <span aria-hidden="true">⚠ </span>
          {failingWarningText(endpoint)}
        </p>
      ) : (
        endpoint.failing_since && <p className="webhook-failing">Failing since {formatDate(endpoint.failing_since)}</p>
      )}
      {probe && <p className="hint">{probe}</p>}
      <p className="hint">{lastDeliveryText(endpoint.last_delivery)}</p>
    </div>
  );
}

/** How deliveries are made, one line each: order, content, rate, and what happens after failing. */
export function DeliveryModes({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <ul className="webhook-modes">
      <li>{ORDERINGS[endpoint.ordering].label}</li>
      <li>{PAYLOADS[endpoint.payload].label}</li>
      <li>{rateLimitText(endpoint.rate_limit)}</li>
      <li>{autoRecoverWording(endpoint.auto_recover).label}</li>
    </ul>
  );
}
