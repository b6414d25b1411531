import type { CatalogedPermission } from '../../../account';
import { mayGrant } from '../roles-shared';

const ACCESSES = ['read', 'write'] as const;
type Access = (typeof ACCESSES)[number];
type Entry = Pick<CatalogedPermission, 'permission' | 'description'>;

/** The permissions by resource: the catalog's, and any a role holds that the catalog no longer lists. */
function permissionGroups(catalog: readonly CatalogedPermission[], held: readonly string[]) {
  const groups = new Map<string, Partial<Record<Access, Entry>>>();
  const add = (resource: string, access: string, entry: Entry) => {
    if (access !== 'read' && access !== 'write') return;
    groups.set(resource, { ...groups.get(resource), [access]: entry });
  };
  for (const { permission, resource, access, description } of catalog)
    add(resource, access, { permission, description });
  for (const permission of held) {
    const [resource, access] = permission.split(':');
    const known = groups.get(resource)?.[access as Access];
    if (access && !known) add(resource, access, { permission, description: 'Not checked by the service any more' });
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** What a role is saved with: `*` alone, or its permissions in order. */
export function normalizePermissions(permissions: readonly string[]): string[] {
  return permissions.includes('*') ? ['*'] : [...new Set(permissions)].sort();
}

/**
 * Read and write per resource, and `*` ("everything"). Only what the signed-in user may grant (what they hold) is
 * offered; what the role holds already stays visible, even when the user could not grant it.
 */
export function PermissionPicker({
  catalog,
  held,
  initial,
  value,
  onChange,
  error,
  legend = 'Permissions',
  intro,
  limit = 'Only permissions you hold yourself are offered: a role cannot grant more than you may.',
}: {
  /** The picker's name, and what the choice means (the applications' dialog reuses it for their scope ceiling). */
  legend?: string;
  intro?: string;
  /** Said to someone who does not hold `*`. */
  limit?: string;
  catalog: readonly CatalogedPermission[];
  /** The signed-in user's permissions; undefined when unknown (the service still decides). */
  held: readonly string[] | undefined;
  initial: readonly string[];
  value: readonly string[];
  onChange: (permissions: string[]) => void;
  error?: string;
}) {
  const grantable = (permission: string) => mayGrant(held, [permission]);
  const offered = (permission: string) => grantable(permission) || initial.includes(permission);
  const everything = value.includes('*');
  const toggle = (permission: string, checked: boolean) =>
    onChange(checked ? [...value, permission] : value.filter((other) => other !== permission));
  const groups = permissionGroups(catalog, initial).filter(([, entries]) =>
    ACCESSES.some((access) => entries[access] && offered(entries[access].permission)),
  );
  const star = catalog.find((entry) => entry.permission === '*');
  return (
    <fieldset className="permission-picker">
      <legend>{legend}</legend>
      {intro && <p className="hint">{intro}</p>}
      {!grantable('*') && <p className="hint">{limit}</p>}
      {offered('*') && (
        <label className="permission-everything">
          <input
            type="checkbox"
            checked={everything}
            disabled={!grantable('*')}
            onChange={(event) => toggle('*', event.target.checked)}
          />
          <span>
            <strong>All permissions</strong>
            <span className="hint">{star?.description ?? 'Every permission, also those the service gains later'}</span>
          </span>
        </label>
      )}
      {groups.length === 0 ? (
        <p className="hint">You hold no permission you could grant.</p>
      ) : (
        <table className="permission-grid">
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">Read</th>
              <th scope="col">Write</th>
            </tr>
          </thead>
          <tbody>
            {groups.map(([resource, entries]) => (
              <tr key={resource}>
                <th scope="row">{resource}</th>
                {ACCESSES.map((access) => {
                  const entry = entries[access];
                  return (
                    <td key={access}>
                      {entry && offered(entry.permission) && (
                        <input
                          type="checkbox"
                          aria-label={entry.permission}
                          title={entry.description}
                          checked={everything || value.includes(entry.permission)}
                          disabled={everything || !grantable(entry.permission)}
                          onChange={(event) => toggle(entry.permission, event.target.checked)}
                        />
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}
