import { useSearchParams } from 'react-router';
import type { ListColumn } from '../../../components/lists/data-table';
import { ListView } from '../../../components/lists/list-view';
import { useListParams } from '../../../components/lists/use-list-params';
import { formatDate, PageHeader } from '../../../components/ui';
import { AuditFilters } from './audit-filters';
import { filterFromSearch, searchOf, useAuditEvents, type AuditEvent, type AuditFilter } from './audit-query';

/** Settings › System › Audit log: who changed what and who signed in, newest first, filtered and paged. */
export function AuditPage() {
  const [search, setSearch] = useSearchParams();
  const [params, setParams] = useListParams();
  const { filter } = filterFromSearch(search);
  const events = useAuditEvents(filter, params.offset);
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
      <ListView
        label="Audit events"
        query={events}
        params={params}
        onParams={setParams}
        columns={COLUMNS}
        rowKey={(event) => event.id}
        empty={
          filtered
            ? { title: 'No event matches these filters', hint: 'Change or clear the filters.' }
            : { title: 'Nothing recorded yet' }
        }
      />
    </>
  );
}

/** Newest first, always: the trail is read by time. */
const COLUMNS: ListColumn<AuditEvent>[] = [
  {
    id: 'time',
    header: 'Time',
    className: 'nowrap',
    cell: (event) => <time dateTime={event.occurred_at}>{formatDate(event.occurred_at)}</time>,
  },
  { id: 'actor', header: 'Actor', className: 'mono', cell: (event) => event.actor },
  {
    id: 'action',
    header: 'Action',
    cell: (event) => (
      <>
        <span className="mono">{event.action}</span> <Outcome outcome={event.outcome} />
      </>
    ),
  },
  {
    id: 'target',
    header: 'Target',
    className: 'mono',
    cell: (event) => (event.target_type ? `${event.target_type} ${event.target_id ?? ''}`.trim() : '—'),
  },
  { id: 'details', header: 'Details', cell: (event) => <EventDetails event={event} /> },
];

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
