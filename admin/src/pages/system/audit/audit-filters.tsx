import { useId, useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui';
import { fromLocalInput, toLocalInput, type AuditFilter } from './audit-query';

/** Kinds of record the service names as targets, offered as suggestions (any other is accepted). */
const TARGET_TYPES = ['integration', 'role', 'user', 'webhook-endpoint', 'signing-key'];

type Draft = Record<'actor' | 'action' | 'target_type' | 'target_id' | 'from' | 'until', string>;

const draftOf = (filter: AuditFilter): Draft => ({
  actor: filter.actor ?? '',
  action: filter.action ?? '',
  target_type: filter.target_type ?? '',
  target_id: filter.target_id ?? '',
  from: toLocalInput(filter.since),
  until: toLocalInput(filter.until),
});

/**
 * The audit log's filters. They apply when the form is sent (Enter in any field, or "Apply filters"), so that
 * typing does not send a request per key; the page keeps them in its address.
 */
export function AuditFilters({ filter, onApply }: { filter: AuditFilter; onApply: (filter: AuditFilter) => void }) {
  const [draft, setDraft] = useState(() => draftOf(filter));
  const typesId = useId();
  const set = (name: keyof Draft) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setDraft((previous) => ({ ...previous, [name]: value }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      actor: draft.actor.trim() || undefined,
      action: draft.action.trim() || undefined,
      target_type: draft.target_type.trim() || undefined,
      target_id: draft.target_id.trim() || undefined,
      since: fromLocalInput(draft.from),
      until: fromLocalInput(draft.until),
    });
  };
  const text = (name: keyof Draft, label: string, hint?: string, list?: string) => (
    <Field label={label} hint={hint}>
      {(props) => <input {...props} type="text" list={list} value={draft[name]} onChange={set(name)} />}
    </Field>
  );
  return (
    <form className="panel audit-filters" aria-label="Filters" onSubmit={submit}>
      <div className="filter-grid">
        {text('actor', 'Actor', 'user:1, integration:3, anonymous or cli')}
        {text('action', 'Action', 'e.g. role.update or sign-in.failed')}
        {text('target_type', 'Target type', 'e.g. integration, role, user', typesId)}
        {text('target_id', 'Target ID')}
        <Field label="From" hint="Events at or after this time">
          {(props) => <input {...props} type="datetime-local" value={draft.from} onChange={set('from')} />}
        </Field>
        <Field label="Until" hint="Events before this time">
          {(props) => <input {...props} type="datetime-local" value={draft.until} onChange={set('until')} />}
        </Field>
      </div>
      <datalist id={typesId}>
        {TARGET_TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      <div className="filter-actions">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button type="button" onClick={() => onApply({})}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
