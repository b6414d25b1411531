import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Schemas } from '../../../api/client';
import { ApiError } from '../../../api/problems';
import { ErrorMessage, Field, FormActions } from '../../../components/ui';
import { AttachmentTypePicker, Choice, ChoiceGroup, EventPicker, RadioPicker, SchemePicker } from './webhook-choices';
import {
  ORDERINGS,
  PAYLOADS,
  RATE_LIMIT_MAX,
  RATE_LIMIT_MIN,
  SCHEMES,
  autoRecoverWording,
  rotationLabel,
  type Ordering,
  type Payload,
} from './webhook-modes';
import { ALL_EVENTS, type SignatureScheme, type WebhookEndpoint } from './webhook-queries';

/** What the form edits: a registration, or the changeable part of an endpoint. */
export interface WebhookDraft {
  url: string;
  events: string[];
  description: string;
  signatureScheme: SignatureScheme;
  attachmentTypes: string[];
  active: boolean;
  ordering: Ordering;
  payload: Payload;
  /** As typed: empty for no limit. */
  rateLimit: string;
  autoRecover: boolean;
}

export const NEW_WEBHOOK: WebhookDraft = {
  url: '',
  events: [ALL_EVENTS],
  description: '',
  signatureScheme: 'github',
  attachmentTypes: [],
  active: true,
  ordering: 'none',
  payload: 'full',
  rateLimit: '',
  autoRecover: false,
};

export const draftOf = (endpoint: WebhookEndpoint): WebhookDraft => ({
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description ?? '',
  signatureScheme: endpoint.signature_scheme,
  attachmentTypes: endpoint.filter?.attachment_types ?? [],
  active: endpoint.active,
  ordering: endpoint.ordering,
  payload: endpoint.payload,
  rateLimit: endpoint.rate_limit === null ? '' : String(endpoint.rate_limit),
  autoRecover: endpoint.auto_recover,
});

const filterOf = (draft: WebhookDraft) =>
  draft.attachmentTypes.length > 0 ? { attachment_types: draft.attachmentTypes } : undefined;

/** The rate limit typed, as the API takes it: null for none (checked before: a whole number in range). */
const rateLimitOf = (draft: WebhookDraft): number | null => (draft.rateLimit.trim() ? Number(draft.rateLimit) : null);

/** How deliveries are made, the same in a registration and a change. */
const modesOf = (draft: WebhookDraft) => ({
  ordering: draft.ordering,
  payload: draft.payload,
  rate_limit: rateLimitOf(draft),
  auto_recover: draft.autoRecover,
});

export const createBody = (draft: WebhookDraft): Schemas['CreateWebhook'] => ({
  url: draft.url.trim(),
  events: draft.events,
  signature_scheme: draft.signatureScheme,
  filter: filterOf(draft),
  description: draft.description.trim() || undefined,
  ...modesOf(draft),
});

export const updateBody = (draft: WebhookDraft): Schemas['UpdateWebhook'] => ({
  url: draft.url.trim(),
  events: draft.events,
  filter: filterOf(draft) ?? null,
  description: draft.description.trim() || null,
  active: draft.active,
  ...modesOf(draft),
});

type FieldErrors = Partial<
  Record<'url' | 'events' | 'description' | 'attachmentTypes' | 'ordering' | 'payload' | 'rateLimit', string>
>;

const RATE_LIMIT_RANGE = `from ${RATE_LIMIT_MIN} to ${RATE_LIMIT_MAX.toLocaleString('en')}`;

/** What the user must fix before anything is sent. */
function check(draft: WebhookDraft): FieldErrors {
  const errors: FieldErrors = {};
  if (!draft.url.trim()) errors.url = 'Enter the URL the service should send events to.';
  if (draft.events.length === 0) errors.events = 'Choose at least one event, or all events.';
  const limit = draft.rateLimit.trim();
  if (limit && !(/^\d+$/.test(limit) && Number(limit) >= RATE_LIMIT_MIN && Number(limit) <= RATE_LIMIT_MAX))
    errors.rateLimit = `Enter a whole number of deliveries a second, ${RATE_LIMIT_RANGE}, or leave it empty for no limit.`;
  return errors;
}

/** The server's refusal, field by field (a refused URL names its cause as an error of `url`). */
function serverErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const fields = error.fieldErrors;
  const found: FieldErrors = {
    url: fields.url,
    events: fields.events,
    description: fields.description,
    attachmentTypes: fields['filter.attachment_types'] ?? fields.filter,
    ordering: fields.ordering,
    payload: fields.payload,
    rateLimit: fields.rate_limit,
  };
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message !== undefined));
}

/**
 * Registration (mode `create`: with the signature scheme) and change (mode `edit`: with the active switch; the scheme
 * changes with a new secret, Rotate secret), and in both how deliveries are made: order, content, rate, recovery.
 */
export function WebhookForm({
  mode,
  initial,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  initial: WebhookDraft;
  busy: boolean;
  error: unknown;
  onSubmit: (draft: WebhookDraft) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [local, setLocal] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const server = serverErrors(error);
  const errors: FieldErrors = { ...server, ...local };
  const fieldsMarked = Object.keys(errors).length > 0;
  // The dialog scrolls: bring the first field to correct into view, with the focus on it.
  useEffect(() => {
    if (error || Object.keys(local).length > 0)
      form.current
        ?.querySelector<HTMLElement>('input[aria-invalid="true"], [aria-invalid="true"] input:not(:disabled)')
        ?.focus();
  }, [error, local]);
  const change = (patch: Partial<WebhookDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = check(draft);
    setLocal(found);
    if (Object.keys(found).length === 0) onSubmit(draft);
  };
  const [label, busyLabel] = mode === 'create' ? ['Create', 'Creating…'] : ['Save', 'Saving…'];
  return (
    <form ref={form} noValidate onSubmit={submit} className="webhook-form">
      <Field label="URL" error={errors.url} hint="Each event is sent here as a signed POST request.">
        {(props) => (
          <input
            {...props}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.org/hooks/files"
            value={draft.url}
            onChange={(event) => change({ url: event.target.value })}
          />
        )}
      </Field>
      <EventPicker value={draft.events} error={errors.events} onChange={(events) => change({ events })} />
      <AttachmentTypePicker
        value={draft.attachmentTypes}
        error={errors.attachmentTypes}
        onChange={(attachmentTypes) => change({ attachmentTypes })}
      />
      {mode === 'create' ? (
        <SchemePicker
          legend="Signature scheme"
          value={draft.signatureScheme}
          onChange={(signatureScheme) => change({ signatureScheme })}
        />
      ) : (
        <div className="field">
          <span className="field-label">Signature scheme</span>
          <p className="webhook-form-fixed">
            {SCHEMES[draft.signatureScheme].label}
            <span className="hint"> · changes with “{rotationLabel(draft.signatureScheme)}”</span>
          </p>
        </div>
      )}
      <Field label="Description" error={errors.description} hint="Optional: who receives these events, and why.">
        {(props) => (
          <input
            {...props}
            maxLength={500}
            value={draft.description}
            onChange={(event) => change({ description: event.target.value })}
          />
        )}
      </Field>
      <RadioPicker
        legend="Order of events"
        options={ORDERINGS}
        error={errors.ordering}
        value={draft.ordering}
        onChange={(ordering) => change({ ordering })}
      />
      <RadioPicker
        legend="Content of each event"
        options={PAYLOADS}
        error={errors.payload}
        value={draft.payload}
        onChange={(payload) => change({ payload })}
      />
      <Field
        label="Rate limit"
        error={errors.rateLimit}
        hint={`Deliveries a second at most, ${RATE_LIMIT_RANGE}, for a receiver that cannot take more. Empty: no limit.`}
      >
        {(props) => (
          <input
            {...props}
            className="webhook-rate-limit"
            inputMode="numeric"
            autoComplete="off"
            placeholder="No limit"
            value={draft.rateLimit}
            onChange={(event) => change({ rateLimit: event.target.value })}
          />
        )}
      </Field>
      <ChoiceGroup legend="After failing">
        <Choice
          type="checkbox"
          label="Re-enable by itself after failing"
          description={autoRecoverWording(true).description}
          checked={draft.autoRecover}
          onChange={(autoRecover) => change({ autoRecover })}
        />
      </ChoiceGroup>
      {mode === 'edit' && (
        <Choice
          type="checkbox"
          label="Active"
          description="Nothing is sent to an inactive endpoint. Turning it on again re-enables an endpoint the service disabled."
          checked={draft.active}
          onChange={(active) => change({ active })}
        />
      )}
      {fieldsMarked ? (
        <ErrorMessage error={new Error('Not saved: correct the fields marked above.')} />
      ) : (
        <ErrorMessage error={error} />
      )}
      <FormActions busy={busy} busyLabel={busyLabel} submit={label} onCancel={onCancel} />
    </form>
  );
}
