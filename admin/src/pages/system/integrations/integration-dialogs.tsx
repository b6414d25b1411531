import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import { DeleteDialog } from '../../../components/delete-dialog';
import { CopyField, Dialog, ErrorMessage, Field, FormActions, formatDate, SecretOnce } from '../../../components/ui';
import { useApi } from '../../../context';
import { fieldErrorsOf, RoleSelect } from '../roles-shared';

export type Integration = Schemas['Integration'];

/** Invalidates the integrations list after a change. */
function useRefreshIntegrations() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['integrations'] });
}

/** "Add integration": label and role, then the access key ID and the secret access key, shown this once. */
export function AddIntegrationDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Add integration" open={open} onClose={onClose}>
      <AddIntegration onClose={onClose} />
    </Dialog>
  );
}

function AddIntegration({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshIntegrations();
  const [label, setLabel] = useState('');
  const [role, setRole] = useState('');
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/integrations', { body: { label: label.trim(), role } })),
    onSuccess: refresh,
  });
  if (create.data) return <Created integration={create.data} onClose={onClose} />;
  const errors = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Field label="Label" error={errors.label} hint="Which system uses it, e.g. “ERP sync”.">
        {(props) => <input {...props} required value={label} onChange={(event) => setLabel(event.target.value)} />}
      </Field>
      <RoleSelect value={role} onChange={setRole} error={errors.role} />
      <ErrorMessage error={create.error} />
      <FormActions busy={create.isPending} busyLabel="Creating…" submit="Create" onCancel={onClose} />
    </form>
  );
}

function Created({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  return (
    <>
      <p className="message message-info" role="status">
        Integration “{integration.label}” created.
      </p>
      <CopyField label="Access key ID" value={integration.access_key_id} />
      <SecretOnce label="Secret access key" value={integration.secret_access_key ?? ''} />
      <p className="hint">
        The system obtains tokens at <code>/api/oauth/token</code> with the client credentials grant: the access key ID
        as <code>client_id</code>, the secret access key as <code>client_secret</code>.
      </p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </>
  );
}

/** "Edit integration": its label and role (only what changed is sent). */
export function EditIntegrationDialog({ integration, onClose }: { integration?: Integration; onClose: () => void }) {
  return (
    <Dialog title="Edit integration" open={!!integration} onClose={onClose}>
      {integration && <EditIntegration integration={integration} onClose={onClose} />}
    </Dialog>
  );
}

function EditIntegration({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshIntegrations();
  const [label, setLabel] = useState(integration.label);
  const [role, setRole] = useState(integration.role);
  const save = useMutation({
    mutationFn: () => {
      const body = {
        ...(label.trim() !== integration.label && { label: label.trim() }),
        ...(role !== integration.role && { role }),
      };
      const { id } = integration;
      return unwrap(api.PATCH('/api/integrations/{id}', { params: { path: { id } }, body }));
    },
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const errors = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Field label="Label" error={errors.label}>
        {(props) => <input {...props} required value={label} onChange={(event) => setLabel(event.target.value)} />}
      </Field>
      <RoleSelect value={role} onChange={setRole} error={errors.role} />
      <ErrorMessage error={save.error} />
      <FormActions busy={save.isPending} submit="Save" onCancel={onClose} />
    </form>
  );
}

/** "Rotate secret": a new secret shown once; the old one works on until the end of the service's grace period. */
export function RotateSecretDialog({ integration, onClose }: { integration?: Integration; onClose: () => void }) {
  return (
    <Dialog title="Rotate secret" open={!!integration} onClose={onClose}>
      {integration && <RotateSecret integration={integration} onClose={onClose} />}
    </Dialog>
  );
}

function RotateSecret({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshIntegrations();
  const path = { id: integration.id };
  const rotate = useMutation({
    mutationFn: () => unwrap(api.POST('/api/integrations/{id}/rotate-secret', { params: { path } })),
    onSuccess: refresh,
  });
  const expire = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/integrations/{id}/previous-secret', { params: { path } })),
    onSuccess: refresh,
  });
  if (!rotate.data) {
    return (
      <>
        <p>
          Issue a new secret access key for <strong>{integration.label}</strong>? The current secret keeps working for a
          grace period, so the system using it has time to switch.
        </p>
        <ErrorMessage error={rotate.error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
            {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
          </button>
        </div>
      </>
    );
  }
  const previous = expire.data ?? rotate.data;
  return (
    <>
      <SecretOnce label="New secret access key" value={rotate.data.secret_access_key ?? ''} />
      <p className="message message-info" role="status">
        {previous.previous_secret_active && previous.previous_secret_expires_at
          ? `The previous secret keeps working until ${formatDate(previous.previous_secret_expires_at)}.`
          : 'The previous secret no longer works.'}
      </p>
      <ErrorMessage error={expire.error} />
      <div className="dialog-actions">
        {previous.previous_secret_active && (
          <button type="button" disabled={expire.isPending} onClick={() => expire.mutate()}>
            {expire.isPending ? 'Ending…' : 'End previous secret now'}
          </button>
        )}
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </>
  );
}

/** Asks before deleting; the integration's tokens stop working at once. */
export function DeleteIntegrationDialog({ integration, onClose }: { integration?: Integration; onClose: () => void }) {
  const api = useApi();
  return (
    <DeleteDialog
      title="Delete integration"
      target={integration}
      remove={({ id }) => unwrap(api.DELETE('/api/integrations/{id}', { params: { path: { id } } }))}
      refresh={['integrations']}
      onClose={onClose}
    >
      <p>
        Delete the integration <strong>{integration?.label}</strong>? Its tokens stop working at once. This cannot be
        undone.
      </p>
    </DeleteDialog>
  );
}
