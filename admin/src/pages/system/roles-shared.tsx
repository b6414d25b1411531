import { useQuery } from '@tanstack/react-query';
import { unwrap, type Schemas } from '../../api/client';
import { ApiError } from '../../api/problems';
import { ErrorMessage, Field } from '../../components/ui';
import { useApi } from '../../context';
import { useMe } from '../../account';

export type Role = Schemas['Role'];

/** The most roles a role picker offers, by name: the API's largest page. */
const PICKER_ROLES = 100;

/** The roles by name for the role pickers of users and integrations (the roles page pages its own list). */
function useRoles() {
  const api = useApi();
  return useQuery({
    queryKey: ['roles', 'picker'],
    queryFn: async () =>
      (await unwrap(api.GET('/api/roles', { params: { query: { limit: PICKER_ROLES, sort: 'name' } } }))).items,
  });
}

/**
 * The service's escalation rule: one may grant only permissions one holds (`*` holds them all). Unknown holdings
 * (GET /api/me failed) allow everything here; the service still decides.
 */
export function mayGrant(held: readonly string[] | undefined, permissions: readonly string[]): boolean {
  if (!held || held.includes('*')) return true;
  return permissions.every((permission) => held.includes(permission));
}

/** The invalid fields of a refused form submission, by field name. */
export function fieldErrorsOf(error: unknown): Record<string, string | undefined> {
  return error instanceof ApiError ? error.fieldErrors : {};
}

/** A select of the roles by name; roles holding more than the signed-in user are shown but cannot be chosen. */
export function RoleSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (role: string) => void;
  error?: string;
}) {
  const roles = useRoles();
  const me = useMe();
  const held = me.data?.permissions;
  return (
    <>
      <Field label="Role" error={error} hint="What it may do: the permissions of this role.">
        {(props) => (
          <select
            {...props}
            required
            value={value}
            disabled={!roles.data}
            onChange={(event) => onChange(event.target.value)}
          >
            <option value="" disabled>
              {roles.isPending ? 'Loading roles…' : 'Choose a role'}
            </option>
            {roles.data?.map((role) => {
              const allowed = mayGrant(held, role.permissions);
              return (
                <option key={role.id} value={role.name} disabled={!allowed}>
                  {allowed ? role.name : `${role.name} (holds permissions you do not)`}
                </option>
              );
            })}
          </select>
        )}
      </Field>
      <ErrorMessage error={roles.error} />
    </>
  );
}
