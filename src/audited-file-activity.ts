import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditRecord } from './audit/index.js';
import { FileActivityLog, type FileActivity, type FileEventTransaction } from '@file-fields/nest';

/**
 * The file-field framework's activity in the audit trail, written in the transaction of the change: an upload or a
 * deletion is an event per file (target `file`, its id), a new order one event on the entity whose field it is.
 */
@Injectable()
export class AuditedFileActivity extends FileActivityLog {
  constructor(private readonly trail: AuditTrail) {
    super();
  }

  record(tx: FileEventTransaction, activity: FileActivity): Promise<void> {
    return this.trail.recordIn(tx.manager, auditRecordsOf(activity));
  }
}

/** The audit events of one file activity: who, what, on which record, and where the file is attached. */
function auditRecordsOf(activity: FileActivity): AuditRecord[] {
  const { action, principal, attachmentType, attachmentId, field, fileIds } = activity;
  const actor = { actor: principal.subject, clientId: principal.clientId };
  if (action === 'file.reorder') {
    return [
      { ...actor, action, targetType: attachmentType, targetId: attachmentId, details: { field, order: fileIds } },
    ];
  }
  const details = { attachment_type: attachmentType, attachment_id: attachmentId, field };
  return fileIds.map((id) => ({ ...actor, action, targetType: 'file', targetId: id, details }));
}
