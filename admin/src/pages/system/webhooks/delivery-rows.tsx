import { Fragment, useState } from 'react';
import { formatDate } from '../../../components/ui';
import type { DeliveryStatus, WebhookAttempt, WebhookDelivery } from './webhook-queries';

const STATUS_BADGE: Record<DeliveryStatus, string> = {
  pending: 'webhook-pending',
  succeeded: 'ok',
  failed: 'off',
  skipped: '',
};
/** The columns of the delivery log, which the row of attempts spans. */
const COLUMNS = 6;

export const capitalized = (text: string) => text[0].toUpperCase() + text.slice(1);

/** A delivery's row and, when expanded, the row of its attempts under it. */
export function DeliveryRows({
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
        <td data-label="Created" className="nowrap">
          {formatDate(delivery.created_at)}
        </td>
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
