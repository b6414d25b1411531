import { useId, type ReactNode } from 'react';
import { ErrorMessage, Progress } from '../../../components/ui';
import { pluralLabel, useContentTypes } from '../../../content-types';
import { SCHEMES, type Wording } from './webhook-modes';
import { ALL_EVENTS, useWebhookEventTypes, type SignatureScheme } from './webhook-queries';

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
export function ChoiceGroup({
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
export function EventPicker({
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
export function AttachmentTypePicker({
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

/**
 * One value of several, each with its name and what it means (`options` in the order shown); `legend` names the
 * group, `hint` says more about it.
 */
export function RadioPicker<T extends string>({
  legend,
  hint,
  error,
  options,
  value,
  onChange,
}: {
  legend: string;
  hint?: string;
  error?: string;
  options: Record<T, Wording>;
  value: T;
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <ChoiceGroup legend={legend} hint={hint} error={error}>
      {(Object.keys(options) as T[]).map((option) => (
        <Choice
          key={option}
          type="radio"
          name={name}
          label={options[option].label}
          description={options[option].description}
          checked={value === option}
          onChange={() => onChange(option)}
        />
      ))}
    </ChoiceGroup>
  );
}

/** How deliveries are signed: with a shared secret (GitHub's format, Standard Webhooks), a public key, or both. */
export function SchemePicker({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: SignatureScheme;
  onChange: (scheme: SignatureScheme) => void;
}) {
  return <RadioPicker legend={legend} options={SCHEMES} value={value} onChange={onChange} />;
}
