import type { PermissionRequirement } from '../../auth/auth.decorators.js';
import { unknownAttachmentType } from '../fields/attachment-owners.js';
import { FileFieldRegistry } from '../fields/file-field.registry.js';

/**
 * The permission of a route whose path names an attachment type: `<type>:<access>`. A type no entity has is a 404
 * before any permission is checked, so a made-up name (any text a URL can carry) never reaches a 403 and its
 * WWW-Authenticate challenge.
 */
export function attachmentTypePermission(access: 'read' | 'write'): PermissionRequirement {
  return (request, providers) => {
    const type = String(request.params.attachmentType);
    if (!providers.get(FileFieldRegistry, { strict: false }).get(type)) throw unknownAttachmentType(type);
    return `${type}:${access}`;
  };
}
