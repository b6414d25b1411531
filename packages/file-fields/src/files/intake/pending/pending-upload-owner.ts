import { InsufficientScopeError } from '../../../auth/auth.errors.js';
import { grants } from '../../../auth/permissions.js';
import type { Principal } from '../../../auth/principal.js';
import type { PendingUpload } from './pending-upload.entity.js';
import { hashUploadId, isUploadId } from './upload-id.js';

/** What finding a pending upload by the id in its URL needs of its table. */
export interface PendingUploadLookup<T extends PendingUpload> {
  findByHash(idHash: string): Promise<T | null>;
}

/**
 * The principal's own pending upload behind an id from a URL; null for an unknown id and for another principal's
 * upload alike, so that a client cannot tell the two apart (each transport answers them with its 404).
 */
export async function ownPendingUpload<T extends PendingUpload>(
  rows: PendingUploadLookup<T>,
  id: string,
  principal: Principal,
): Promise<T | null> {
  const upload = isUploadId(id) ? await rows.findByHash(hashUploadId(id)) : null;
  return upload && upload.subject === principal.subject ? upload : null;
}

/** 403 once the principal that started the upload no longer holds `<type>:write`. */
export function assertMayWrite(upload: PendingUpload, principal: Principal): void {
  const required = `${upload.attachmentType}:write`;
  if (!grants(principal.scopes, required)) throw new InsufficientScopeError(required);
}
