import { useId, useState } from 'react';
import { capitalized } from './delivery-rows';
import { useWebhookEventTypes, type DeliveryFilter, type DeliveryStatus } from './webhook-queries';

const STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'skipped'];

export const filtered = (filter: DeliveryFilter) => Object.values(filter).some((value) => value !== undefined);

/** The delivery log's filters: a state, an event kind, and the id a receiver reports (`evt_…`), found on Enter. */
export function DeliveryFilters({
  value,
  onChange,
}: {
  value: DeliveryFilter;
  onChange: (filter: DeliveryFilter) => void;
}) {
  const kinds = (useWebhookEventTypes().data ?? []).map((type) => type.event);
  const idField = useId();
  const [eventId, setEventId] = useState(value.event_id ?? '');
  const findId = (text: string) => onChange({ ...value, event_id: text.trim() || undefined });
  return (
    <>
      <label className="webhook-inline-field">
        <span>Status</span>
        <select
          value={value.status ?? ''}
          onChange={(event) => onChange({ ...value, status: (event.target.value || undefined) as DeliveryStatus })}
        >
          <option value="">All</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {capitalized(status)}
            </option>
          ))}
        </select>
      </label>
      <label className="webhook-inline-field">
        <span>Event</span>
        <select
          value={value.event ?? ''}
          onChange={(event) => onChange({ ...value, event: event.target.value || undefined })}
        >
          <option value="">All</option>
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </label>
      <form
        role="search"
        className="webhook-inline-field"
        onSubmit={(event) => {
          event.preventDefault();
          findId(eventId);
        }}
      >
        <label htmlFor={idField}>Event id</label>
        <input
          id={idField}
          type="search"
          className="mono"
          maxLength={64}
          placeholder="evt_…"
          value={eventId}
          onChange={(event) => {
            setEventId(event.target.value);
            // Emptied (also by the field's clear button): every event again.
            if (event.target.value === '' && value.event_id) findId('');
          }}
        />
      </form>
    </>
  );
}
