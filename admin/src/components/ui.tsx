import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { messageOf } from '../api/problems';

/** An API error (or any failure) as a readable message, announced to screen readers. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="message message-error" role="alert">
      {messageOf(error)}
    </p>
  );
}

/** A long action or a load under way. */
export function Progress({ label }: { label: string }) {
  return (
    <p className="progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/** What to do when a list is empty. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <p>{children}</p>}
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

/** A labelled form field; `error` is shown under it and tied to it for assistive technology. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A modal dialog (the platform's <dialog>: focus kept inside, Escape closes it). */
export function Dialog({
  title,
  open,
  onClose,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // jsdom has no showModal: the attribute alone opens it there.
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}

/** Asks before something that cannot be undone. */
export function ConfirmDialog({
  title,
  open,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  open: boolean;
  confirmLabel: string;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} open={open} onClose={onCancel}>
      {children}
      <ErrorMessage error={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** Cancel and the submit button at the foot of a dialog's form; the submit button says `busyLabel` while busy. */
export function FormActions({
  submit,
  busy,
  busyLabel = 'Saving…',
  disabled,
  onCancel,
}: {
  submit: string;
  busy: boolean;
  busyLabel?: string;
  disabled?: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="primary" disabled={busy || disabled}>
        {busy ? busyLabel : submit}
      </button>
    </div>
  );
}

/** Copies a value to the clipboard and says so. */
function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" className="small" onClick={() => void copy()} aria-label={label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** A read-only value with a button that copies it (named `copyLabel`, by default "Copy" and the label). */
export function CopyField({
  label,
  value,
  copyLabel = `Copy ${label}`,
  children,
}: {
  label: string;
  value: string;
  copyLabel?: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="secret">
      <label htmlFor={id}>{label}</label>
      <div className="secret-value">
        <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton value={value} label={copyLabel} />
      </div>
      {children}
    </div>
  );
}

/** A secret the service shows once: the value, a copy button and the warning. */
export function SecretOnce({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <CopyField label={label} value={value} copyLabel={`Copy ${label.toLowerCase()}`}>
      <p className="message message-warning" role="note">
        Copy it now: it will not be shown again.{children ? ' ' : ''}
        {children}
      </p>
    </CopyField>
  );
}

/** Bytes as a person reads them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A date-time in the reader's locale, or a dash. */
export function formatDate(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : '—';
}
