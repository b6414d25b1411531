import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap, type Schemas } from '../../../api/client';
import { useApi } from '../../../context';

export type AuditEvent = Schemas['AuditEvent'];

const AUDIT_PAGE_SIZE = 25;

/** The audit log's filters, as GET /api/audit-events and the page's address both name them. */
const FILTER_NAMES = ['actor', 'action', 'target_type', 'target_id', 'since', 'until'] as const;
export type AuditFilter = Partial<Record<(typeof FILTER_NAMES)[number], string>>;

/** The filters and the offset in the page's address (`?actor=user:1&offset=25`), so a view can be shared. */
export function filterFromSearch(search: URLSearchParams): { filter: AuditFilter; offset: number } {
  const filter: AuditFilter = {};
  for (const name of FILTER_NAMES) {
    const value = search.get(name)?.trim();
    if (value) filter[name] = value;
  }
  return { filter, offset: Math.max(0, Math.trunc(Number(search.get('offset'))) || 0) };
}

export function searchOf(filter: AuditFilter, offset = 0): Record<string, string> {
  const search: Record<string, string> = {};
  for (const name of FILTER_NAMES) if (filter[name]) search[name] = filter[name];
  if (offset > 0) search.offset = String(offset);
  return search;
}

/** A page of the audit trail, newest first; the previous page stays shown while the next one loads. */
export function useAuditEvents(filter: AuditFilter, offset: number) {
  const api = useApi();
  return useQuery({
    queryKey: ['audit-events', filter, offset],
    queryFn: () =>
      unwrap(api.GET('/api/audit-events', { params: { query: { ...filter, limit: AUDIT_PAGE_SIZE, offset } } })),
    placeholderData: keepPreviousData,
  });
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An RFC 3339 time as a datetime-local input shows it, in the reader's time zone; '' when unreadable. */
export function toLocalInput(time: string | undefined): string {
  const date = time ? new Date(time) : undefined;
  if (!date || Number.isNaN(date.getTime())) return '';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A datetime-local input's value (the reader's time zone) as RFC 3339 in UTC; undefined when empty or unreadable. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
