import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { unwrap } from '../../../api/client';
import { DeleteDialog } from '../../../components/delete-dialog';
import { CopyField, Dialog, ErrorMessage, SecretOnce, formatDate } from '../../../components/ui';
import { useApi } from '../../../context';
import { SchemePicker } from './webhook-choices';
import { hasSecret, keySetUrl, rotationLabel } from './webhook-modes';
import { NEW_WEBHOOK, WebhookForm, createBody, draftOf, updateBody } from './webhook-form';
import { webhookKeys, withoutSecret, type SignatureScheme, type WebhookEndpoint } from './webhook-queries';

export const WEBHOOKS_PATH = '/settings/system/webhooks';

/** What each dialog of one endpoint's page is given. */
export interface EndpointDialogProps {
  endpoint: WebhookEndpoint;
  open: boolean;
  onClose: () => void;
}

/** Registration; then its signing secret, shown this once. */
export function AddWebhookDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const api = useApi();
  const queries = useQueryClient();
  const create = useMutation({
    mutationFn: (body: Parameters<typeof createBody>[0]) =>
      unwrap(api.POST('/api/webhooks', { body: createBody(body) })),
    onSuccess: () => queries.invalidateQueries({ queryKey: webhookKeys.list }),
  });
  const close = () => {
    create.reset();
    onClose();
  };
  const created = create.data;
  return (
    <Dialog title={created ? 'Webhook added' : 'Add webhook'} open={open} onClose={close}>
      {created ? (
        <>
          {created.secret ? (
            <>
              <p>
                Events now go to <span className="mono">{created.url}</span>. Give its receiver this secret to verify
                their signatures.
              </p>
              <SecretOnce label="Signing secret" value={created.secret} />
            </>
          ) : (
            <PublicKeyNote url={created.url} />
          )}
          <div className="dialog-actions">
            <Link to={`${WEBHOOKS_PATH}/${created.id}`}>Open the webhook</Link>
            <button type="button" className="primary" onClick={close}>
              Done
            </button>
          </div>
        </>
      ) : (
        <WebhookForm
          mode="create"
          initial={NEW_WEBHOOK}
          busy={create.isPending}
          error={create.error}
          onSubmit={(draft) => create.mutate(draft)}
          onCancel={close}
        />
      )}
    </Dialog>
  );
}

export function EditWebhookDialog({ endpoint, open, onClose }: EndpointDialogProps) {
  const api = useApi();
  const queries = useQueryClient();
  const update = useMutation({
    mutationFn: (draft: Parameters<typeof updateBody>[0]) =>
      unwrap(api.PATCH('/api/webhooks/{id}', { params: { path: { id: endpoint.id } }, body: updateBody(draft) })),
    onSuccess: (changed) => {
      queries.setQueryData(webhookKeys.one(endpoint.id), withoutSecret(changed));
      void queries.invalidateQueries({ queryKey: webhookKeys.list });
      close();
    },
  });
  const close = () => {
    update.reset();
    onClose();
  };
  return (
    <Dialog title="Edit webhook" open={open} onClose={close}>
      <WebhookForm
        mode="edit"
        initial={draftOf(endpoint)}
        busy={update.isPending}
        error={update.error}
        onSubmit={(draft) => update.mutate(draft)}
        onCancel={close}
      />
    </Dialog>
  );
}

/** A new secret, in the endpoint's scheme or another; the old one keeps signing during the grace period. */
export function RotateSecretDialog({ endpoint, open, onClose }: EndpointDialogProps) {
  const api = useApi();
  const queries = useQueryClient();
  const [scheme, setScheme] = useState<SignatureScheme>(endpoint.signature_scheme);
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/webhooks/{id}/rotate-secret', {
          params: { path: { id: endpoint.id } },
          body: { signature_scheme: scheme },
        }),
      ),
    onSuccess: (rotated) => queries.setQueryData(webhookKeys.one(endpoint.id), withoutSecret(rotated)),
  });
  const close = () => {
    rotate.reset();
    setScheme(endpoint.signature_scheme);
    onClose();
  };
  const rotated = rotate.data;
  const grace =
    rotated?.previous_secret_expires_at &&
    `The previous secret keeps signing too until ${formatDate(rotated.previous_secret_expires_at)}: switch the receiver before then.`;
  return (
    <Dialog title={rotationLabel(endpoint.signature_scheme)} open={open} onClose={close}>
      {rotated ? (
        <>
          {rotated.secret ? (
            <SecretOnce label="New signing secret" value={rotated.secret}>
              {grace}
            </SecretOnce>
          ) : (
            <>
              <PublicKeyNote url={rotated.url} />
              {grace && <p className="message message-warning">{grace}</p>}
            </>
          )}
          <div className="dialog-actions">
            <button type="button" className="primary" onClick={close}>
              Done
            </button>
          </div>
        </>
      ) : (
        <>
          <p>
            {hasSecret(scheme)
              ? 'The service issues a new signing secret.'
              : 'Deliveries will be signed with the service’s own key alone: there is no secret to hand over.'}
            {hasSecret(endpoint.signature_scheme) &&
              ' The current secret keeps signing next to it for a grace period, so the receiver can switch without ' +
                'missing a delivery.'}
          </p>
          <SchemePicker legend="Scheme of the new secret" value={scheme} onChange={setScheme} />
          <ErrorMessage error={rotate.error} />
          <div className="dialog-actions">
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              {rotate.isPending ? 'Issuing…' : hasSecret(scheme) ? 'Issue new secret' : 'Sign with the public key'}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

/** A webhook signed with the service's key alone has no secret: where its receiver finds the public keys instead. */
function PublicKeyNote({ url }: { url: string }) {
  const keys = keySetUrl();
  return (
    <>
      <p>
        Events to <span className="mono">{url}</span> are signed with the service’s own key: there is no secret to hand
        over. Its receiver checks the signatures with the public keys at this address.
      </p>
      <CopyField label="Public keys" value={keys} copyLabel="Copy the address of the public keys" />
    </>
  );
}

export function DeleteWebhookDialog({ endpoint, open, onClose }: EndpointDialogProps) {
  const api = useApi();
  const queries = useQueryClient();
  const navigate = useNavigate();
  return (
    <DeleteDialog
      title="Delete webhook?"
      target={open ? endpoint : undefined}
      remove={({ id }) => unwrap(api.DELETE('/api/webhooks/{id}', { params: { path: { id } } }))}
      onDeleted={async ({ id, url }) => {
        await navigate(WEBHOOKS_PATH, { state: { notice: `The webhook to ${url} was deleted.` } });
        queries.removeQueries({ queryKey: webhookKeys.one(id) });
      }}
      refresh={webhookKeys.list}
      onClose={onClose}
    >
      <p>
        Nothing more is sent to <span className="mono">{endpoint.url}</span>, and its delivery log is deleted with it.
        This cannot be undone.
      </p>
    </DeleteDialog>
  );
}
