import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { unwrap } from '../../../api/client';
import { DeleteDialog } from '../../../components/delete-dialog';
import { CopyField, Dialog, ErrorMessage, Field, FormActions, SecretOnce } from '../../../components/ui';
import { useApi } from '../../../context';
import { normalizePermissions } from '../roles/permission-picker';
import { fieldErrorsOf } from '../roles-shared';
import { ClientScopeFields, type ClientScopes } from './client-scope-fields';
import { OAUTH_CLIENTS_KEY, type NewOAuthClient, type OAuthClient, type OAuthClientChange } from './oauth-clients-api';

/** The redirect URIs typed one per line: blank lines and surrounding spaces dropped. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The fields of the application forms a refusal may name. */
const FORM_FIELDS = ['name', 'redirect_uris', 'scopes', 'default_scopes'];

/**
 * A refusal, field by field, said once: at its field, with the form pointing there, or under the form when it names
 * no field of it (a 403, say). A refused redirect URI is named by itself rather than by its index in the request.
 */
function useFormRefusal(error: unknown, sentUris: readonly string[] | undefined) {
  const form = useRef<HTMLFormElement>(null);
  const all = fieldErrorsOf(error);
  const fields = Object.fromEntries(Object.entries(all).filter(([field]) => FORM_FIELDS.includes(field)));
  const uris = fields.redirect_uris?.match(/^redirect_uris\[(\d+)\] (.+)$/);
  if (uris && sentUris?.[Number(uris[1])]) fields.redirect_uris = `${sentUris[Number(uris[1])]} ${uris[2]}`;
  const marked = Object.keys(fields).length > 0;
  // The dialog scrolls: the first field to correct comes into view, with the focus on it.
  useEffect(() => {
    if (error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);
  const summary = marked ? new Error('Not saved: correct the fields marked above.') : error;
  return { form, fields, summary };
}

/** The scopes of a client as the service takes them; `default_scopes` null: all of the ceiling. */
const scopesBody = ({ scopes, defaults }: ClientScopes) => {
  const ceiling = normalizePermissions(scopes);
  const asked = normalizePermissions(defaults);
  return { scopes: ceiling, default_scopes: asked.length > 0 ? asked : null };
};

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
  const [scopes, setScopes] = useState<ClientScopes>({ scopes: [], defaults: [] });
  const [noScopes, setNoScopes] = useState(false);
  const create = useMutation({
    mutationFn: (body: NewOAuthClient) => unwrap(api.POST('/api/oauth/clients', { body })),
    onSuccess: refresh,
  });
  const { form, fields, summary } = useFormRefusal(create.error, create.variables?.redirect_uris);
  if (create.data) return <Registered client={create.data} onClose={onClose} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { scopes: ceiling, default_scopes } = scopesBody(scopes);
    // An application allowed nothing could not be used: said before anything is sent.
    setNoScopes(ceiling.length === 0);
    if (ceiling.length === 0) return;
    create.mutate({
      name: name.trim(),
      redirect_uris: linesOf(redirects),
      public: isPublic,
      scopes: ceiling,
      ...(default_scopes && { default_scopes }),
    });
  };
  return (
    <form ref={form} onSubmit={submit}>
      <NameAndRedirects name={name} redirects={redirects} onName={setName} onRedirects={setRedirects} errors={fields} />
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
      <ClientScopeFields
        value={scopes}
        initial={[]}
        onChange={setScopes}
        errors={noScopes ? { scopes: 'Choose at least one permission.' } : fields}
      />
      <ErrorMessage error={noScopes ? undefined : summary} />
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

/** The client's scopes in the form: its defaults unticked when they are its whole ceiling (none set). */
function scopesOf(client: OAuthClient): ClientScopes {
  const ceiling = normalizePermissions(client.scopes);
  const defaults = normalizePermissions(client.default_scopes);
  return { scopes: ceiling, defaults: defaults.join(' ') === ceiling.join(' ') ? [] : defaults };
}

function EditOAuthClient({ client, onClose }: { client: OAuthClient; onClose: () => void }) {
  const api = useApi();
  const refresh = useRefreshClients();
  const [name, setName] = useState(client.name);
  const [redirects, setRedirects] = useState(client.redirect_uris.join('\n'));
  const [scopes, setScopes] = useState(() => scopesOf(client));
  const save = useMutation({
    mutationFn: (body: OAuthClientChange) =>
      unwrap(api.PATCH('/api/oauth/clients/{id}', { params: { path: { id: client.client_id } }, body })),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const { form, fields, summary } = useFormRefusal(save.error, save.variables?.redirect_uris);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const uris = linesOf(redirects);
    const before = scopesBody(scopesOf(client));
    const after = scopesBody(scopes);
    const same = (a: readonly string[] | null, b: readonly string[] | null) => a?.join(' ') === b?.join(' ');
    save.mutate({
      ...(name.trim() !== client.name && { name: name.trim() }),
      ...(uris.join('\n') !== client.redirect_uris.join('\n') && { redirect_uris: uris }),
      ...(!same(after.scopes, before.scopes) && { scopes: after.scopes }),
      ...(!same(after.default_scopes, before.default_scopes) && { default_scopes: after.default_scopes }),
    });
  };
  return (
    <form ref={form} onSubmit={submit}>
      <NameAndRedirects name={name} redirects={redirects} onName={setName} onRedirects={setRedirects} errors={fields} />
      <ClientScopeFields value={scopes} initial={client.scopes} onChange={setScopes} errors={fields} />
      <ErrorMessage error={summary} />
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
