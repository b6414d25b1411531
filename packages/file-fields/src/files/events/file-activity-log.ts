import type { Principal } from '../../auth/principal.js';
import type { FileEventTransaction } from './file-event-publisher.js';

/** What people and integrations do to files, as an activity history records it. */
type FileActivityAction = 'file.upload' | 'file.replace' | 'file.delete' | 'file.reorder';

/**
 * One change a principal made to the files of a field: the files uploaded, replaced or deleted, or the field's new
 * order. Ids and names only, never file contents.
 */
export interface FileActivity {
  action: FileActivityAction;
  principal: Pick<Principal, 'subject' | 'clientId'>;
  attachmentType: string;
  attachmentId: number;
  field: string;
  /** The files the action touched; for `file.reorder`, the field's files in their new order. */
  fileIds: number[];
}

/**
 * The port through which the files module tells an activity history (the host application's audit trail) who changed
 * which files. `record` runs inside the change's transaction: the history holds a change exactly when it committed.
 * Without an implementation, nothing is recorded.
 */
export abstract class FileActivityLog {
  abstract record(tx: FileEventTransaction, activity: FileActivity): Promise<void>;
}

/** The activity log when the application keeps none. */
export class NoFileActivityLog extends FileActivityLog {
  record(): Promise<void> {
    return Promise.resolve();
  }
}
