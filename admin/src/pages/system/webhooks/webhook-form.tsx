import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Schemas } from '../../../api/client';
import { ApiError } from '../../../api/problems';
import { ErrorMessage, Field, FormActions } from '../../../components/ui';
import { AttachmentTypePicker, Choice, EventPicker, SchemePicker } from './webhook-choices';
import { ALL_EVENTS, type SignatureScheme, type WebhookEndpoint } from './webhook-queries';

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

/** The server's refusal, field by field (a refused URL names its cause as an error of `url`). */
function serverErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const fields = error.fieldErrors;
  const found: FieldErrors = {
    url: fields.url,
    events: fields.events,
    description: fields.description,
    attachmentTypes: fields['filter.attachment_types'] ?? fields.filter,
  };
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message !== undefined));
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
  const form = useRef<HTMLFormElement>(null);
  const server = serverErrors(error);
  const errors: FieldErrors = { ...server, ...local };
  const fieldsMarked = Object.keys(errors).length > 0;
  // The dialog scrolls: bring the first field to correct into view, with the focus on it.
  useEffect(() => {
    if (error || Object.keys(local).length > 0)
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"] input, input[aria-invalid="true"]')?.focus();
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
      {fieldsMarked ? (
        <ErrorMessage error={new Error('Not saved: correct the fields marked above.')} />
      ) : (
        <ErrorMessage error={error} />
      )}
      <FormActions busy={busy} busyLabel={busyLabel} submit={label} onCancel={onCancel} />
    </form>
  );
}
