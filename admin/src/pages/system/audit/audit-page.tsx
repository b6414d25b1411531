import { useSearchParams } from 'react-router';
import { EmptyState, ErrorMessage, formatDate, PageHeader, Progress } from '../../../components/ui';
import { Pager } from '../../../components/pager';
import { AuditFilters } from './audit-filters';
import {
  AUDIT_PAGE_SIZE,
  filterFromSearch,
  searchOf,
  useAuditEvents,
  type AuditEvent,
  type AuditFilter,
} from './audit-query';

/** Settings › System › Audit log: who changed what and who signed in, newest first, filtered and paged. */
export function AuditPage() {
  const [search, setSearch] = useSearchParams();
  const { filter, offset } = filterFromSearch(search);
  const events = useAuditEvents(filter, offset);
  const filtered = Object.keys(filter).length > 0;
  const apply = (next: AuditFilter) => setSearch(searchOf(next));
  return (
    <>
      <PageHeader title="Audit log" />
      <p className="page-intro">
        Every change made through the administration API, every refusal and every sign-in. Secrets are never recorded.
      </p>
      {/* Keyed by the address: going back or forward shows that view's filters in the form. */}
      <AuditFilters key={search.toString()} filter={filter} onApply={apply} />
      {events.isPending && <Progress label="Loading the audit log…" />}
      <ErrorMessage error={events.error} />
      {events.data?.total === 0 && (
        <EmptyState title={filtered ? 'No event matches these filters' : 'Nothing recorded yet'}>
          {filtered && 'Change or clear the filters.'}
        </EmptyState>
      )}
      {events.data && events.data.items.length > 0 && (
        <>
          <AuditTable events={events.data.items} busy={events.isPlaceholderData} />
          <Pager
            offset={offset}
            limit={AUDIT_PAGE_SIZE}
            total={events.data.total}
            onOffset={(next) => setSearch(searchOf(filter, next))}
          />
        </>
      )}
      {events.data && events.data.items.length === 0 && events.data.total > 0 && (
        <EmptyState title="Nothing on this page">
          <button type="button" className="link" onClick={() => setSearch(searchOf(filter))}>
            Go to the first page
          </button>
        </EmptyState>
      )}
    </>
  );
}

function AuditTable({ events, busy }: { events: AuditEvent[]; busy: boolean }) {
  return (
    <table className="table audit-table" aria-busy={busy}>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Actor</th>
          <th scope="col">Action</th>
          <th scope="col">Target</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.id}>
            <td data-label="Time" className="nowrap">
              <time dateTime={event.occurred_at}>{formatDate(event.occurred_at)}</time>
            </td>
            <td data-label="Actor" className="mono">
              {event.actor}
            </td>
            <td data-label="Action">
              <span className="mono">{event.action}</span> <Outcome outcome={event.outcome} />
            </td>
            <td data-label="Target" className="mono">
              {event.target_type ? `${event.target_type} ${event.target_id ?? ''}`.trim() : '—'}
            </td>
            <td>
              <EventDetails event={event} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const OUTCOMES: Record<AuditEvent['outcome'], [string, string]> = {
  success: ['Succeeded', 'ok'],
  denied: ['Refused', 'off'],
  failure: ['Failed', 'off'],
};

function Outcome({ outcome }: { outcome: AuditEvent['outcome'] }) {
  const [label, tone] = OUTCOMES[outcome];
  return <span className={`badge ${tone}`}>{label}</span>;
}

/** Where the request came from and what the service noted (the API keeps secrets out of both). */
function EventDetails({ event }: { event: AuditEvent }) {
  return (
    <details className="audit-details">
      <summary>
        Details<span className="visually-hidden"> of event {event.id}</span>
      </summary>
      <dl>
        <dt>Client</dt>
        <dd className="mono">{event.client_id ?? '—'}</dd>
        <dt>Source IP</dt>
        <dd className="mono">{event.source_ip ?? '—'}</dd>
        <dt>Request ID</dt>
        <dd className="mono">{event.request_id ?? '—'}</dd>
        {event.details && (
          <>
            <dt>Noted</dt>
            <dd>
              <pre>{JSON.stringify(event.details, null, 2)}</pre>
            </dd>
          </>
        )}
      </dl>
    </details>
  );
}
