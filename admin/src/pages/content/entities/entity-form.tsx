import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../api/problems';
import { ErrorMessage, Field } from '../../../components/ui';
import type { FormField } from './entity-schema';
import type { FormValues } from './entity-writes';

/**
 * The fields of a create or update body, labelled from the schema, sent as they are: the service's 400 problem
 * decides what is valid, and each of its field errors is shown at its field (the first one focused).
 */
export function EntityForm({
  fields,
  initial,
  error,
  onSubmit,
  children,
}: {
  fields: FormField[];
  initial: FormValues;
  error: unknown;
  onSubmit: (values: FormValues) => void;
  /** The actions at the foot of the form. */
  children: (values: FormValues) => ReactNode;
}) {
  const [values, setValues] = useState(initial);
  const form = useRef<HTMLFormElement>(null);
  const errors = fieldErrorsIn(fields, error);
  const hasFieldErrors = Object.keys(errors).length > 0;
  useEffect(() => {
    if (error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values);
  };
  const set = (name: string, value: string | boolean) => setValues((all) => ({ ...all, [name]: value }));
  return (
    // noValidate: the service's messages, at their fields, rather than the browser's bubbles.
    <form ref={form} onSubmit={submit} noValidate>
      {fields.map((field) => (
        <EntityField
          key={field.name}
          field={field}
          value={values[field.name]}
          error={errors[field.name]}
          onChange={(value) => set(field.name, value)}
        />
      ))}
      {hasFieldErrors ? (
        <ErrorMessage error={new Error('Not saved: correct the fields marked above.')} />
      ) : (
        <ErrorMessage error={error} />
      )}
      {children(values)}
    </form>
  );
}

function EntityField({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField;
  value: string | boolean | undefined;
  error?: string;
  onChange: (value: string | boolean) => void;
}) {
  const hint = hintOf(field);
  if (field.kind === 'boolean') {
    return (
      <Field label={field.title} error={error} hint={hint}>
        {(props) => (
          <input {...props} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        )}
      </Field>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <Field label={field.title} error={error} hint={hint}>
      {(props) =>
        field.kind === 'long-text' ? (
          <textarea
            {...props}
            rows={5}
            required={field.required}
            maxLength={field.maxLength}
            value={text}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            {...props}
            type={field.kind === 'number' ? 'number' : 'text'}
            required={field.required}
            maxLength={field.maxLength}
            autoComplete="off"
            value={text}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Field>
  );
}

/** The schema's description, then what the field takes: "Optional.", "Up to 200 characters.". */
function hintOf(field: FormField): string | undefined {
  const parts = [field.description && `${field.description.replace(/\.?$/, '.')}`];
  if (!field.required) parts.push('Optional.');
  if (field.maxLength !== undefined) parts.push(`Up to ${field.maxLength.toLocaleString('en')} characters.`);
  return parts.filter(Boolean).join(' ') || undefined;
}

/**
 * The problem's field errors for the fields shown, worded with their labels ("name is required" → "Name is
 * required"); errors about other properties stay in the problem's message.
 */
function fieldErrorsIn(fields: FormField[], error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const errors: Record<string, string> = {};
  for (const [name, message] of Object.entries(error.fieldErrors)) {
    const field = fields.find((candidate) => candidate.name === name);
    if (!field) continue;
    errors[name] = message
      .split('; ')
      .map((part) => (part.startsWith(`${name} `) ? `${field.title}${part.slice(name.length)}` : part))
      .join('; ');
  }
  return errors;
}
