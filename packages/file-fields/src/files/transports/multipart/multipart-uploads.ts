import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Principal } from '../../../auth/principal.js';
import { FilesService, type UploadResult } from '../../attach/files.service.js';
import { FieldAdmission, type UploadTarget } from '../../intake/admission/field-admission.js';
import { UploadSlots } from '../../intake/admission/upload-slots.js';
import { UploadInspection } from '../../intake/inspection/upload-inspection.js';
import { MultipartReceiver } from './multipart-receiver.js';

/** Uploads in one multipart/form-data request: the bytes stream to storage as they arrive, then are attached. */
@Injectable()
export class MultipartUploads {
  constructor(
    private readonly admission: FieldAdmission,
    private readonly inspection: UploadInspection,
    private readonly receiver: MultipartReceiver,
    private readonly slots: UploadSlots,
    private readonly files: FilesService,
  ) {}

  /**
   * Takes one of the principal's upload slots (429 when it has none left) and checks the target before a byte is
   * read, streams the parts to storage, then saves their file records in one transaction. The slot is freed when
   * the upload ends however it ends; a client that goes away frees it at once, whatever is still being cleaned up.
   */
  async upload(target: UploadTarget, principal: Principal, req: Request, res: Response): Promise<UploadResult> {
    const release = this.slots.acquire(principal.subject);
    res.once('close', release);
    try {
      return await this.receiveAndAttach(target, principal, req, res);
    } finally {
      release();
    }
  }

  private async receiveAndAttach(
    target: UploadTarget,
    principal: Principal,
    req: Request,
    res: Response,
  ): Promise<UploadResult> {
    const { attachmentType, attachmentId } = target;
    const admitted = await this.admission.admit(target);
    const { field, slot, rules } = admitted;
    await this.admission.assertRoomFor(field, slot, 1);
    const parts = await this.receiver.receive(req, res, {
      newKey: () => `${attachmentType}/${attachmentId}/${randomUUID()}`,
      maxFiles: rules.maxFilesPerRequest,
      maxFileSize: rules.maxSize,
      accept: field.accept,
      inspectImage: (key, head, size, mimeType) => this.inspection.image(key, head, size, mimeType, field),
    });
    return this.files.attach(admitted, principal, parts);
  }
}
