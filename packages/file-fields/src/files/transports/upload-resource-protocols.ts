import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '../../auth/principal.js';
import { isDraftRequest } from './draft/draft-headers.js';
import { DraftProtocol } from './draft/draft-protocol.js';
import { ResumableUploads } from './resumable/engine/resumable-uploads.service.js';
import { ResumableError, ResumableErrorCode } from './resumable/resumable.errors.js';
import { isTusRequest, TUS_VERSION } from './tus/tus-headers.js';
import { TusProtocol } from './tus/tus-protocol.js';

export { ApiDraftAppend, ApiDraftCancel, ApiDraftOffset } from './draft/draft-openapi.js';
export { TUS_EXTENSIONS, TUS_VERSION } from './tus/tus-headers.js';

/**
 * The one place that chooses the protocol of a request to an upload resource (`/files/uploads/{id}`): the IETF draft
 * when the request carries its headers, tus when it carries Tus-Resumable, else the one the upload was created with.
 */
@Injectable()
export class UploadResourceProtocols {
  constructor(
    private readonly tus: TusProtocol,
    private readonly draft: DraftProtocol,
    private readonly uploads: ResumableUploads,
  ) {}

  /** OPTIONS: what the server speaks (tus discovery). */
  discover(res: Response): void {
    this.tus.discover(res);
  }

  async head(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    if (await this.speaksDraft(id, principal, req)) return this.draft.head(id, principal, req, res);
    await this.tus.head(id, principal, req, res);
  }

  async patch(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    if (await this.speaksDraft(id, principal, req)) return this.draft.patch(id, principal, req, res);
    await this.tus.patch(id, principal, req, res);
  }

  async terminate(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    if (await this.speaksDraft(id, principal, req)) return this.draft.cancel(id, principal, req, res);
    await this.tus.terminate(id, principal, req, res);
  }

  /**
   * Whether to answer as the IETF draft: the request carries its headers, or it names neither protocol and the
   * upload was created with the draft (an upload resource answers in the protocol it was created with).
   */
  private async speaksDraft(id: string, principal: Principal, req: Request): Promise<boolean> {
    if (isDraftRequest(req)) return true;
    if (isTusRequest(req)) return false;
    return (await this.uploads.protocolOf(id, principal)) === 'draft';
  }
}

/** 405 for any other method on an upload resource, naming those it takes. */
export function methodNotAllowed(): ResumableError {
  return new ResumableError(ResumableErrorCode.MethodNotAllowed, 'An upload takes OPTIONS, HEAD, PATCH and DELETE.', {
    Allow: 'OPTIONS, HEAD, PATCH, DELETE',
    'Tus-Resumable': TUS_VERSION,
  });
}
