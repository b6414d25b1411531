/** Permissions in words a person reads: "integration:read" → "see integrations". */

const SPECIAL: Record<string, string> = { 'audit:read': 'read the audit log' };

const pluralOf = (words: string) =>
  words.endsWith('y') ? `${words.slice(0, -1)}ies` : words.endsWith('s') ? words : `${words}s`;

/** What a permission lets a person do: "see integrations", "change products". */
function permissionPurpose(permission: string): string {
  if (SPECIAL[permission]) return SPECIAL[permission];
  const [resource, access] = permission.split(':');
  if (!resource || !access || resource === '*') return 'do this';
  return `${access === 'read' ? 'see' : 'change'} ${pluralOf(resource.replace(/[-_]/g, ' '))}`;
}

/** The refusal of something a role does not allow, and what to do about it. */
export function noPermissionMessage(permission: string): string {
  return (
    `You don't have permission to ${permissionPurpose(permission)}. ` +
    `Ask an administrator for a role with the “${permission}” permission.`
  );
}

/**
 * What a set of permissions lets its holder do, read and write of one resource said together: ["product:read",
 * "product:write", "audit:read"] → "read the audit log, see and change products"; `*` → "do everything".
 */
export function permissionsInWords(permissions: readonly string[]): string {
  if (permissions.includes('*')) return 'do everything';
  const held = new Set(permissions);
  const both = (resource: string) =>
    held.has(`${resource}:read`) && held.has(`${resource}:write`) && !SPECIAL[`${resource}:read`];
  const phrases = [...held].sort().flatMap((permission) => {
    const [resource, access] = permission.split(':');
    if (!both(resource)) return [permissionPurpose(permission)];
    // Said once, with the read.
    return access === 'read' ? [`see and change ${pluralOf(resource.replace(/[-_]/g, ' '))}`] : [];
  });
  return phrases.join(', ') || 'nothing';
}

/** A sentence's first letter in capitals: "see products" → "See products". */
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
