import type { EntityManager } from 'typeorm';

/** What the files module reports: a file record was created, replaced, deleted, or a field reordered. */
export const FILE_EVENT_KINDS = ['file.created', 'file.updated', 'file.deleted', 'file.reordered'] as const;
export type FileEventKind = (typeof FILE_EVENT_KINDS)[number];

/** One change to report, with its JSON data (`{ file }` or `{ attachment_type, attachment_id, field, files }`). */
export interface FileEvent {
  kind: FileEventKind;
  data: Record<string, unknown>;
}

/** The transaction a change runs in: the event must be written in it, and may act once it commits. */
export interface FileEventTransaction {
  readonly manager: EntityManager;
  /** Absent where no commit hook is at hand (an entity deleted through TypeORM's own transaction). */
  afterCommit?(task: () => Promise<unknown>): void;
}

/**
 * The port through which the files module reports its changes; the host application implements it (here the
 * WebhooksModule's outbox). `publish` runs inside the change's transaction, so an event exists exactly when its
 * change committed. Without an implementation, changes are simply not reported.
 */
export abstract class FileEventPublisher {
  abstract publish(tx: FileEventTransaction, event: FileEvent): Promise<void>;
}

/** The publisher when the application wants no events. */
export class NoFileEvents extends FileEventPublisher {
  publish(): Promise<void> {
    return Promise.resolve();
  }
}
