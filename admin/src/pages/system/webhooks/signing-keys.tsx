import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { unwrap, type Schemas } from '../../../api/client';
import { DataTable, type ListColumn } from '../../../components/lists/data-table';
import { Dialog, EmptyState, ErrorMessage, Progress, formatDate } from '../../../components/ui';
import { useApi } from '../../../context';
import { usePermissions } from '../../../permissions';
import { SCHEMES, keySetUrl } from './webhook-modes';
import { webhookKeys } from './webhook-queries';

export type WebhookSigningKey = Schemas['WebhookSigningKey'];
type KeyState = Schemas['WebhookSigningKeyState'];

/** What rotating the keys needs: the service refuses every other token (POST /api/webhooks/signing-keys/rotate). */
const ROTATE_SIGNING_KEY_PERMISSION = '*';

const STATES: Record<KeyState, { label: string; badge: string }> = {
  upcoming: { label: 'Upcoming', badge: 'badge webhook-pending' },
  signing: { label: 'Signing now', badge: 'badge ok' },
  retired: { label: 'Retired', badge: 'badge' },
};

/** When the key signs: from (upcoming), since (signing), or from and until (retired). */
function inUse(key: WebhookSigningKey): string {
  if (key.state === 'upcoming') return `From ${formatDate(key.activates_at)}`;
  if (key.state === 'signing') return `Since ${formatDate(key.activates_at)}`;
  return `${formatDate(key.activates_at)} to ${formatDate(key.retired_at)}`;
}

const COLUMNS: ListColumn<WebhookSigningKey>[] = [
  { id: 'kid', header: 'Key ID', className: 'mono', cell: (key) => key.kid },
  {
    id: 'state',
    header: 'State',
    cell: (key) => <span className={STATES[key.state].badge}>{STATES[key.state].label}</span>,
  },
  { id: 'activates_at', header: 'Signs', cell: inUse },
  {
    id: 'published_until',
    header: 'Published until',
    cell: (key) => (key.published_until ? formatDate(key.published_until) : 'No end date yet'),
  },
];

function useSigningKeys() {
  const api = useApi();
  return useQuery({
    queryKey: webhookKeys.signingKeys,
    queryFn: () => unwrap(api.GET('/api/webhooks/signing-keys')),
  });
}

function useRotateSigningKey() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/webhooks/signing-keys/rotate')),
    onSuccess: () => queries.invalidateQueries({ queryKey: webhookKeys.signingKeys }),
  });
}

/**
 * The public keys that check signatures of the public-key schemes: each key's state and dates, where receivers fetch
 * them, and (for those who may) a rotation.
 */
export function SigningKeysPanel() {
  const keys = useSigningKeys();
  const { may } = usePermissions();
  const mayRotate = may(ROTATE_SIGNING_KEY_PERMISSION);
  const [rotating, setRotating] = useState(false);
  const [rotated, setRotated] = useState<WebhookSigningKey>();
  const heading = useId();
  const url = keySetUrl();
  return (
    <section className="panel webhook-keys" aria-labelledby={heading}>
      <div className="webhook-section-header">
        <h2 id={heading}>Public signing keys</h2>
        {mayRotate && (
          <button type="button" onClick={() => setRotating(true)}>
            Rotate signing key
          </button>
        )}
      </div>
      <p className="hint">
        Webhooks signed “{SCHEMES['standard-v1a'].label}” or “{SCHEMES['standard-v1-v1a'].label}” are signed with the
        service’s own key. Their receivers check the signatures with these public keys, which they read from{' '}
        <a className="mono" href={url} target="_blank" rel="noreferrer">
          {url}
        </a>
        .
      </p>
      {rotated && (
        <p className="message message-info" role="status">
          New key <span className="mono">{rotated.kid}</span> published: it signs from{' '}
          {formatDate(rotated.activates_at)}. Until then the current key goes on signing.
        </p>
      )}
      {keys.isPending && <Progress label="Loading the signing keys…" />}
      <ErrorMessage error={keys.error} />
      {keys.data?.length === 0 && <EmptyState title="No key published yet" />}
      {keys.data && keys.data.length > 0 && (
        <DataTable label="Public signing keys" columns={COLUMNS} rows={keys.data} rowKey={(key) => key.kid} />
      )}
      {!mayRotate && (
        <p className="hint webhook-keys-note">
          Only an administrator (a role with every permission) can rotate the signing key.
        </p>
      )}
      {mayRotate && (
        <RotateSigningKeyDialog
          open={rotating}
          onClose={() => setRotating(false)}
          onRotated={(key) => {
            setRotated(key);
            setRotating(false);
          }}
        />
      )}
    </section>
  );
}

/** Asks before a rotation, says what it does, and sends it. */
function RotateSigningKeyDialog({
  open,
  onClose,
  onRotated,
}: {
  open: boolean;
  onClose: () => void;
  onRotated: (key: WebhookSigningKey) => void;
}) {
  const rotate = useRotateSigningKey();
  const close = () => {
    rotate.reset();
    onClose();
  };
  return (
    <Dialog title="Rotate the signing key?" open={open} onClose={close}>
      <p>
        A new key is published now and starts signing a little later, once receivers have had time to fetch it. The key
        signing now goes on until then, and stays published until every delivery it signed is over: receivers that read
        the public keys need no change.
      </p>
      <ErrorMessage error={rotate.error} />
      <div className="dialog-actions">
        <button type="button" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={rotate.isPending}
          onClick={() =>
            rotate.mutate(undefined, {
              onSuccess: (key) => {
                rotate.reset();
                onRotated(key);
              },
            })
          }
        >
          {rotate.isPending ? 'Rotating…' : 'Rotate signing key'}
        </button>
      </div>
    </Dialog>
  );
}
