/** A permission: `<resource>:<read|write>`, or `*` for all. */
export const PERMISSION = /^(\*|[a-z][a-z0-9_-]{0,63}:(read|write))$/;

/** Whether a string is a permission. */
export function isPermission(value: string): boolean {
  return PERMISSION.test(value);
}

/** Whether a permission set grants `required` (`*` grants everything). */
export function grants(permissions: readonly string[], required: string): boolean {
  return permissions.includes('*') || permissions.includes(required);
}
