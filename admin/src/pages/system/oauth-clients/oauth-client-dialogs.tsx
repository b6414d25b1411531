import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap } from '../../../api/client';
import { DeleteDialog } from '../../../components/delete-dialog';
import { CopyField, Dialog, ErrorMessage, Field, FormActions, SecretOnce } from '../../../components/ui';
import { useApi } from '../../../context';
import { fieldErrorsOf } from '../roles-shared';
import { OAUTH_CLIENTS_KEY, type OAuthClient } from './oauth-clients-api';

/** The redirect URIs typed one per line: blank lines and surrounding spaces dropped. */
export const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function useRefreshClients() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: OAUTH_CLIENTS_KEY });
}

function NameAndRedirects({
  name,
  redirects,
  onName,
  onRedirects,
  errors,
}: {
  name: string;
  redirects: string;
  onName: (name: string) => void;
  onRedirects: (text: string) => void;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <Field label="Name" error={errors.name} hint="Shown on the sign-in page: “to continue to …”.">
        {(props) => <input {...props} required value={name} onChange={(event) => onName(event.target.value)} />}
      </Field>
      <Field
        label="Redirect URIs"
        error={errors.redirect_uris}
        hint="One per line, as the application sends it: https, or http on 127.0.0.1 or localhost. Up to 10."
      >
        {(props) => (
          <textarea
            {...props}
            required
            rows={3}
            spellCheck={false}
            value={redirects}
            onChange={(event) => onRedirects(event.target.value)}
          />
        )}
      </Field>
    </>
  );
}

/** "Add application": name, redirect URIs and type, then the client ID and, for a confidential one, its secret once. */
export function AddOAuthClientDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Add application" open={open} onClose={onClose}>
      <AddOAuthClient onClose={onClose} />
    </Dialog>
  );
}

function AddOAuthClient({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshClients();
  const [name, setName] = useState('');
  const [redirects, setRedirects] = useState('');
  const [isPublic, setPublic] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/oauth/clients', {
          body: { name: name.trim(), redirect_uris: linesOf(redirects), public: isPublic },
        }),
      ),
    onSuccess: refresh,
  });
  if (create.data) return <Registered client={create.data} onClose={onClose} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit}>
      <NameAndRedirects
        name={name}
        redirects={redirects}
        onName={setName}
        onRedirects={setRedirects}
        errors={fieldErrorsOf(create.error)}
      />
      <fieldset className="field">
        <legend>Type</legend>
        <label>
          <input type="radio" name="type" checked={!isPublic} onChange={() => setPublic(false)} /> Confidential: a
          server that keeps a secret
        </label>
        <label>
          <input type="radio" name="type" checked={isPublic} onChange={() => setPublic(true)} /> Public: a browser or
          mobile app, no secret
        </label>
      </fieldset>
      <ErrorMessage error={create.error} />
      <FormActions busy={create.isPending} busyLabel="Adding…" submit="Add" onCancel={onClose} />
    </form>
  );
}

function Registered({ client, onClose }: { client: OAuthClient; onClose: () => void }) {
  return (
    <>
      <p className="message message-info" role="status">
        Application “{client.name}” added.
      </p>
      <CopyField label="Client ID" value={client.client_id} />
      {client.client_secret && <SecretOnce label="Client secret" value={client.client_secret} />}
      <p className="hint">
        It sends people to <code>/api/oauth/authorize</code> with PKCE (S256) and redeems the code at{' '}
        <code>/api/oauth/token</code>
        {client.public ? ' without a secret.' : ', authenticating with the client ID and secret.'}
      </p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </>
  );
}

/** "Edit application": its name and redirect URIs (only what changed is sent). */
export function EditOAuthClientDialog({ client, onClose }: { client?: OAuthClient; onClose: () => void }) {
  return (
    <Dialog title="Edit application" open={!!client} onClose={onClose}>
      {client && <EditOAuthClient client={client} onClose={onClose} />}
    </Dialog>
  );
}

function EditOAuthClient({ client, onClose }: { client: OAuthClient; onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshClients();
  const [name, setName] = useState(client.name);
  const [redirects, setRedirects] = useState(client.redirect_uris.join('\n'));
  const save = useMutation({
    mutationFn: () => {
      const uris = linesOf(redirects);
      const body = {
        ...(name.trim() !== client.name && { name: name.trim() }),
        ...(uris.join('\n') !== client.redirect_uris.join('\n') && { redirect_uris: uris }),
      };
      const path = { id: client.client_id };
      return unwrap(api.PATCH('/api/oauth/clients/{id}', { params: { path }, body }));
    },
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <NameAndRedirects
        name={name}
        redirects={redirects}
        onName={setName}
        onRedirects={setRedirects}
        errors={fieldErrorsOf(save.error)}
      />
      <ErrorMessage error={save.error} />
      <FormActions busy={save.isPending} submit="Save" onCancel={onClose} />
    </form>
  );
}

/** "Rotate secret": a new secret shown once; the old one stops working at once. */
export function RotateOAuthClientSecretDialog({ client, onClose }: { client?: OAuthClient; onClose: () => void }) {
  return (
    <Dialog title="Rotate secret" open={!!client} onClose={onClose}>
      {client && <RotateSecret client={client} onClose={onClose} />}
    </Dialog>
  );
}

function RotateSecret({ client, onClose }: { client: OAuthClient; onClose: () => void }) {
  const api = useApi();
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/oauth/clients/{id}/secret', { params: { path: { id: client.client_id } } })),
  });
  return (
    <>
      {rotate.data ? (
        <SecretOnce label="New client secret" value={rotate.data.client_secret ?? ''} />
      ) : (
        <p>
          Issue a new client secret for <strong>{client.name}</strong>? The current secret stops working at once; people
          signed in through the application stay signed in.
        </p>
      )}
      <ErrorMessage error={rotate.error} />
      <div className="dialog-actions">
        {rotate.data ? (
          <button type="button" className="primary" onClick={onClose}>
            Done
          </button>
        ) : (
          <>
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="primary" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
            </button>
          </>
        )}
      </div>
    </>
  );
}

/** Asks before deleting; the application's codes and sign-ins end with it. */
export function DeleteOAuthClientDialog({ client, onClose }: { client?: OAuthClient; onClose: () => void }) {
  const api = useApi();
  return (
    <DeleteDialog
      title="Delete application"
      target={client}
      remove={({ client_id }) => unwrap(api.DELETE('/api/oauth/clients/{id}', { params: { path: { id: client_id } } }))}
      refresh={OAUTH_CLIENTS_KEY}
      onClose={onClose}
    >
      <p>
        Delete the application <strong>{client?.name}</strong>? It can no longer sign anyone in, and everyone signed in
        through it is signed out at once. This cannot be undone.
      </p>
    </DeleteDialog>
  );
}
