import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Schemas } from '../../../api/client';
import { ApiError } from '../../../api/problems';
import { ErrorMessage, Field, FormActions, Progress } from '../../../components/ui';
import { pluralLabel } from '../../../content-types';
import { useContentTypes } from '../../../content-types';
import {
  ALL_EVENTS,
  problemCode,
  useWebhookEventTypes,
  type SignatureScheme,
  type WebhookEndpoint,
} from './webhook-queries';

/** What the form edits: a registration, or the changeable part of an endpoint. */
export interface WebhookDraft {
  url: string;
  events: string[];
  description: string;
  signatureScheme: SignatureScheme;
  attachmentTypes: string[];
  active: boolean;
}

export const NEW_WEBHOOK: WebhookDraft = {
  url: '',
  events: [ALL_EVENTS],
  description: '',
  signatureScheme: 'github',
  attachmentTypes: [],
  active: true,
};

export const draftOf = (endpoint: WebhookEndpoint): WebhookDraft => ({
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description ?? '',
  signatureScheme: endpoint.signature_scheme,
  attachmentTypes: endpoint.filter?.attachment_types ?? [],
  active: endpoint.active,
});

const filterOf = (draft: WebhookDraft) =>
  draft.attachmentTypes.length > 0 ? { attachment_types: draft.attachmentTypes } : undefined;

export const createBody = (draft: WebhookDraft): Schemas['CreateWebhook'] => ({
  url: draft.url.trim(),
  events: draft.events,
  signature_scheme: draft.signatureScheme,
  filter: filterOf(draft),
  description: draft.description.trim() || undefined,
});

export const updateBody = (draft: WebhookDraft): Schemas['UpdateWebhook'] => ({
  url: draft.url.trim(),
  events: draft.events,
  filter: filterOf(draft) ?? null,
  description: draft.description.trim() || null,
  active: draft.active,
});

type FieldErrors = Partial<Record<'url' | 'events' | 'description' | 'attachmentTypes', string>>;

/** What the user must fix before anything is sent. */
function check(draft: WebhookDraft): FieldErrors {
  const errors: FieldErrors = {};
  if (!draft.url.trim()) errors.url = 'Enter the URL the service should send events to.';
  if (draft.events.length === 0) errors.events = 'Choose at least one event, or all events.';
  return errors;
}

/** The server's refusal, field by field; a refused URL (https only, public addresses only) belongs to the URL. */
function serverErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const fields = error.fieldErrors;
  const refusedUrl = problemCode(error) === 'unsafe-webhook-url' ? error.body?.detail : undefined;
  return {
    url: fields.url ?? refusedUrl,
    events: fields.events,
    description: fields.description,
    attachmentTypes: fields['filter.attachment_types'] ?? fields.filter,
  };
}

/** Registration (mode `create`: with the signature scheme) and change (mode `edit`: with the active switch). */
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
  const server = serverErrors(error);
  const errors: FieldErrors = {
    url: local.url ?? server.url,
    events: local.events ?? server.events,
    description: server.description,
    attachmentTypes: server.attachmentTypes,
  };
  const change = (patch: Partial<WebhookDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = check(draft);
    setLocal(found);
    if (Object.keys(found).length === 0) onSubmit(draft);
  };
  const [label, busyLabel] = mode === 'create' ? ['Create', 'Creating…'] : ['Save', 'Saving…'];
  return (
    <form noValidate onSubmit={submit} className="webhook-form">
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
      {mode === 'create' && (
        <SchemePicker
          legend="Signature scheme"
          value={draft.signatureScheme}
          onChange={(signatureScheme) => change({ signatureScheme })}
        />
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
      {mode === 'edit' && (
        <Choice
          type="checkbox"
          label="Active"
          description="Nothing is sent to an inactive endpoint. Turning it on again re-enables an endpoint the service disabled."
          checked={draft.active}
          onChange={(active) => change({ active })}
        />
      )}
      <ErrorMessage error={error} />
      <FormActions busy={busy} busyLabel={busyLabel} submit={label} onCancel={onCancel} />
    </form>
  );
}

/** A checkbox or radio button with its label and, under it, what it means. */
export function Choice({
  type,
  name,
  label,
  description,
  checked,
  disabled,
  onChange,
}: {
  type: 'checkbox' | 'radio';
  name?: string;
  label: ReactNode;
  description?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="webhook-choice">
      <input
        id={id}
        type={type}
        name={name}
        checked={checked}
        disabled={disabled}
        aria-describedby={description ? `${id}-description` : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {description && (
        <p className="hint" id={`${id}-description`}>
          {description}
        </p>
      )}
    </div>
  );
}

/** A group of choices under a legend, with the group's error under it. */
function ChoiceGroup({
  legend,
  hint,
  error,
  children,
}: {
  legend: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="field webhook-choices" aria-describedby={described} aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The event kinds from the catalog (those endpoints may subscribe to), or `*` for all of them. */
function EventPicker({
  value,
  error,
  onChange,
}: {
  value: string[];
  error?: string;
  onChange: (events: string[]) => void;
}) {
  const catalog = useWebhookEventTypes();
  const all = value.includes(ALL_EVENTS);
  const subscribable = (catalog.data ?? []).filter((type) => type.subscribable);
  const described = new Map(subscribable.map((type) => [type.event, type.description]));
  // Kinds the endpoint has but the catalog no longer lists stay visible, so saving does not drop them unseen.
  const kinds = [...new Set([...described.keys(), ...value.filter((event) => event !== ALL_EVENTS)])];
  const toggle = (kind: string, on: boolean) =>
    onChange(on ? [...value, kind] : value.filter((event) => event !== kind));
  return (
    <ChoiceGroup legend="Events" error={error}>
      <Choice
        type="checkbox"
        label="All events"
        description="Every kind, also those added later."
        checked={all}
        onChange={(on) => onChange(on ? [ALL_EVENTS] : [])}
      />
      {catalog.isLoading && <Progress label="Loading the event kinds…" />}
      <ErrorMessage error={catalog.error} />
      {kinds.map((kind) => (
        <Choice
          key={kind}
          type="checkbox"
          label={<span className="mono">{kind}</span>}
          description={described.get(kind)}
          checked={all || value.includes(kind)}
          disabled={all}
          onChange={(on) => toggle(kind, on)}
        />
      ))}
    </ChoiceGroup>
  );
}

/** Which entity types' file events the endpoint receives; none chosen means all of them. */
function AttachmentTypePicker({
  value,
  error,
  onChange,
}: {
  value: string[];
  error?: string;
  onChange: (types: string[]) => void;
}) {
  const known = (useContentTypes().data ?? []).map((type) => type.attachment_type);
  const types = [...new Set([...known, ...value])];
  if (types.length === 0) return null;
  return (
    <ChoiceGroup
      legend="Only events about"
      hint="None chosen: file events of every type. Pings and disabled-endpoint notices always pass."
      error={error}
    >
      {types.map((type) => (
        <Choice
          key={type}
          type="checkbox"
          label={pluralLabel(type)}
          checked={value.includes(type)}
          onChange={(on) => onChange(on ? [...value, type] : value.filter((chosen) => chosen !== type))}
        />
      ))}
    </ChoiceGroup>
  );
}

export const SCHEMES: Record<SignatureScheme, { label: string; description: string }> = {
  github: {
    label: 'GitHub style',
    description: 'X-Signature: sha256=<hex>, an HMAC of the body (as GitHub signs). Secret ffwh_…',
  },
  standard: {
    label: 'Standard Webhooks',
    description: 'webhook-id, webhook-timestamp and webhook-signature headers (also Svix’s format). Secret whsec_…',
  },
};

/** How deliveries are signed: GitHub's format or Standard Webhooks. */
export function SchemePicker({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: SignatureScheme;
  onChange: (scheme: SignatureScheme) => void;
}) {
  const name = useId();
  return (
    <ChoiceGroup legend={legend}>
      {(Object.keys(SCHEMES) as SignatureScheme[]).map((scheme) => (
        <Choice
          key={scheme}
          type="radio"
          name={name}
          label={SCHEMES[scheme].label}
          description={SCHEMES[scheme].description}
          checked={value === scheme}
          onChange={() => onChange(scheme)}
        />
      ))}
    </ChoiceGroup>
  );
}
