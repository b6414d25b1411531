import { useMe, usePermissionCatalog, type CatalogedPermission } from '../../../account';
import { ErrorMessage, Progress } from '../../../components/ui';
import { capitalized, permissionsInWords } from '../../../permission-words';
import { normalizePermissions, PermissionPicker } from '../roles/permission-picker';

/** The permissions an application may be given and asks for by default, as the form keeps them. */
export interface ClientScopes {
  scopes: string[];
  /** Empty: all of `scopes` (the service's default when none is set). */
  defaults: string[];
}

/** What may be a default: the ceiling's permissions, or every one of the catalog's under `*`. */
function defaultChoices(scopes: readonly string[], catalog: readonly CatalogedPermission[]): string[] {
  if (!scopes.includes('*')) return normalizePermissions(scopes);
  return ['*', ...catalog.map((entry) => entry.permission).filter((permission) => permission !== '*')];
}

/** A narrower ceiling takes out the defaults it no longer holds. */
const withinCeiling = (defaults: readonly string[], scopes: readonly string[]) =>
  scopes.includes('*') ? [...defaults] : defaults.filter((permission) => scopes.includes(permission));

/**
 * The scope ceiling of an application (the role dialog's picker: only what the signed-in user holds is offered, as
 * the service refuses more), and the part of it a sign-in without `scope` asks for.
 */
export function ClientScopeFields({
  value,
  initial,
  onChange,
  errors,
}: {
  value: ClientScopes;
  /** The ceiling the application has now (kept in view even where the signed-in user could not grant it). */
  initial: readonly string[];
  onChange: (value: ClientScopes) => void;
  errors: Record<string, string | undefined>;
}) {
  const catalog = usePermissionCatalog();
  const me = useMe();
  if (catalog.isPending || me.isPending) return <Progress label="Loading permissions…" />;
  if (!catalog.data) return <ErrorMessage error={catalog.error} />;
  const choices = defaultChoices(value.scopes, catalog.data);
  const toggle = (permission: string, checked: boolean) =>
    onChange({
      ...value,
      defaults: checked ? [...value.defaults, permission] : value.defaults.filter((other) => other !== permission),
    });
  return (
    <>
      <PermissionPicker
        legend="Permissions"
        intro="The most it may ever act with: a person who signs in there allows it at most these, and never more than their own role."
        limit="Only permissions you hold yourself are offered: an application cannot be allowed more than you may."
        catalog={catalog.data}
        held={me.data?.permissions}
        initial={initial}
        value={value.scopes}
        onChange={(scopes) => onChange({ scopes, defaults: withinCeiling(value.defaults, scopes) })}
        error={errors.scopes}
      />
      <fieldset className="webhook-choices">
        <legend>Asked for when it names none</legend>
        <p className="hint">
          What it gets when its sign-in request has no <code>scope</code>. None ticked: all its permissions.
        </p>
        {choices.length === 0 && <p className="hint">Choose its permissions first.</p>}
        {choices.map((permission) => (
          <label key={permission} className="webhook-choice">
            <input
              type="checkbox"
              checked={value.defaults.includes(permission)}
              onChange={(event) => toggle(permission, event.target.checked)}
            />
            <span>
              {capitalized(permissionsInWords([permission]))} <code>{permission}</code>
            </span>
          </label>
        ))}
        {errors.default_scopes && <p className="field-error">{errors.default_scopes}</p>}
      </fieldset>
    </>
  );
}
