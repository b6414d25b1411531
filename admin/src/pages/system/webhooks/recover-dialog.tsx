import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import { Dialog, ErrorMessage, Field, formatDate } from '../../../components/ui';
import { useApi } from '../../../context';
import type { EndpointDialogProps } from './endpoint-dialogs';
import { Choice } from './webhook-choices';
import { webhookKeys, withoutSecret, type WebhookEndpoint } from './webhook-queries';

type Recoverable = Schemas['RecoverWebhookDeliveries']['status'][number];
type Recovery = Schemas['WebhookRecovery'];

/** How far back a recovery reaches unless told otherwise: beyond the default WEBHOOK_DISABLE_AFTER of 5 days. */
const DEFAULT_WINDOW_MS = 7 * 24 * 3600_000;

/** "2026-11-22T08:00" in the reader's time zone, as a datetime-local input holds it. */
export const toLocalInput = (date: Date) =>
  new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/**
 * Sends the failed and skipped deliveries of a time window again (POST /recover). A disabled endpoint would only skip
 * them again, so the service refuses it: the dialog enables the endpoint first.
 */
export function RecoverDialog({ endpoint, open, onClose }: EndpointDialogProps) {
  return (
    <Dialog title="Recover deliveries" open={open} onClose={onClose}>
      <RecoverForm endpoint={endpoint} onClose={onClose} />
    </Dialog>
  );
}

function RecoverForm({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - DEFAULT_WINDOW_MS)));
  const [until, setUntil] = useState('');
  const [statuses, setStatuses] = useState<Recoverable[]>(['failed', 'skipped']);
  const [invalid, setInvalid] = useState<string>();
  const recover = useRecover(endpoint);
  const result = recover.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkWindow(since, until, statuses);
    setInvalid(problem);
    if (problem) return;
    recover.mutate(
      {
        since: new Date(since).toISOString(),
        until: until ? new Date(until).toISOString() : undefined,
        status: statuses,
      },
      {
        // More matched than one call takes: the next call goes on from where this one stopped, in the same window.
        onSuccess: (answer) => {
          if (!answer.next_since) return;
          setSince(toLocalInput(new Date(answer.next_since)));
          setUntil(toLocalInput(new Date(answer.until)));
        },
      },
    );
  };
  const toggle = (status: Recoverable, on: boolean) =>
    setStatuses(on ? [...statuses, status] : statuses.filter((chosen) => chosen !== status));
  return (
    <form noValidate onSubmit={submit}>
      <p>Each chosen delivery created in the window gets one new attempt, with its event id, oldest first.</p>
      {!endpoint.active && (
        <p className="message message-warning">
          This endpoint is disabled, and would only skip them again: it will be enabled first.
        </p>
      )}
      <Field label="Since" hint="In your time zone: when its deliveries started failing, or earlier.">
        {(props) => (
          <input {...props} type="datetime-local" value={since} onChange={(event) => setSince(event.target.value)} />
        )}
      </Field>
      <Field label="Until" hint="Empty: now.">
        {(props) => (
          <input {...props} type="datetime-local" value={until} onChange={(event) => setUntil(event.target.value)} />
        )}
      </Field>
      <fieldset className="field webhook-choices">
        <legend>Deliveries that</legend>
        <Choice
          type="checkbox"
          label="Failed"
          description="Retries exhausted, or 410 Gone."
          checked={statuses.includes('failed')}
          onChange={(on) => toggle('failed', on)}
        />
        <Choice
          type="checkbox"
          label="Were skipped"
          description="Kept while the endpoint was disabled."
          checked={statuses.includes('skipped')}
          onChange={(on) => toggle('skipped', on)}
        />
      </fieldset>
      {invalid && (
        <p className="message message-error" role="alert">
          {invalid}
        </p>
      )}
      <ErrorMessage error={recover.error} />
      {result && (
        <p className="message message-info" role="status">
          {describeRecovery(result)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {result ? 'Close' : 'Cancel'}
        </button>
        <button type="submit" className="primary" disabled={recover.isPending}>
          {recover.isPending ? 'Recovering…' : endpoint.active ? 'Recover deliveries' : 'Enable and recover'}
        </button>
      </div>
    </form>
  );
}

function useRecover(endpoint: WebhookEndpoint) {
  const api = useApi();
  const queries = useQueryClient();
  const path = { id: endpoint.id };
  return useMutation({
    mutationFn: async (body: Schemas['RecoverWebhookDeliveries']) => {
      if (!endpoint.active) {
        const enabled = await unwrap(api.PATCH('/api/webhooks/{id}', { params: { path }, body: { active: true } }));
        queries.setQueryData(webhookKeys.one(endpoint.id), withoutSecret(enabled));
        void queries.invalidateQueries({ queryKey: webhookKeys.list });
      }
      return unwrap(api.POST('/api/webhooks/{id}/recover', { params: { path }, body }));
    },
    onSettled: () => queries.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) }),
  });
}

function checkWindow(since: string, until: string, statuses: Recoverable[]): string | undefined {
  if (!since) return 'Choose since when deliveries are sent again.';
  if (until && new Date(until) <= new Date(since)) return '“Until” must be later than “Since”.';
  if (statuses.length === 0) return 'Choose failed deliveries, skipped ones, or both.';
  return undefined;
}

function describeRecovery(recovery: Recovery): string {
  const queued = `${recovery.requeued} ${recovery.requeued === 1 ? 'delivery' : 'deliveries'} queued again.`;
  if (recovery.remaining === 0 || !recovery.next_since) return queued;
  return (
    `${queued} ${recovery.remaining} more matched: once these have been sent, recover again from ` +
    `${formatDate(recovery.next_since)} (already filled in).`
  );
}
