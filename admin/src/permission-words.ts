/** Permissions in words a person reads: "integration:read" → "see integrations". */

const SPECIAL: Record<string, string> = { 'audit:read': 'read the audit log' };

const pluralOf = (words: string) =>
  words.endsWith('y') ? `${words.slice(0, -1)}ies` : words.endsWith('s') ? words : `${words}s`;

/** What a permission lets a person do: "see integrations", "change products". */
export function permissionPurpose(permission: string): string {
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
