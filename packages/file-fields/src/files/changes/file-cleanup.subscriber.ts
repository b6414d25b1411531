import { Injectable, Logger } from '@nestjs/common';
import {
  DataSource,
  type EntitySubscriberInterface,
  type QueryRunner,
  type RemoveEvent,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
} from 'typeorm';
import { FileEventPublisher } from '../events/file-event-publisher.js';
import { AttachmentOwnersRepository } from '../fields/attachment-owners.repository.js';
import { FileFieldRegistry } from '../fields/file-field.registry.js';
import { FileRecordDto } from '../records/file-record.dto.js';
import { FileRecordsRepository } from '../records/file-records.repository.js';
import { FileStorage } from '../../storage/file-storage.js';
import { storedKeysOf } from '../records/variant-state.js';

const PENDING_KEYS = 'files:pending-deletes';

/**
 * Generic cleanup for every entity type with file fields: when such an entity is removed, its file records
 * go in the same transaction, and its stored bytes are deleted only once that transaction commits.
 */
@Injectable()
export class FileCleanupSubscriber implements EntitySubscriberInterface {
  private readonly logger = new Logger(FileCleanupSubscriber.name);

  constructor(
    dataSource: DataSource,
    private readonly registry: FileFieldRegistry,
    private readonly storage: FileStorage,
    private readonly events: FileEventPublisher,
    private readonly fileRecords: FileRecordsRepository,
    private readonly owners: AttachmentOwnersRepository,
  ) {
    dataSource.subscribers.push(this);
  }

  async beforeRemove(event: RemoveEvent<object>): Promise<void> {
    const owner = event.entity && this.registry.forInstance(event.entity);
    if (!owner) return;
    const id = (event.entity as Record<string, unknown>)[owner.metadata.primaryColumns[0].propertyName];
    if (typeof id !== 'number') return;
    // The owner row first, then its files: the order of every write to an entity's files (uploads, reorders, file
    // deletes), so that on PostgreSQL a delete and such a write wait for each other instead of deadlocking.
    const supportsRowLocks = event.connection.options.type === 'postgres';
    await this.owners.lock({ manager: event.manager, supportsRowLocks }, owner, id);
    const files = await this.fileRecords.ofOwner(owner.type, id, event.manager);
    if (files.length === 0) return;
    for (const file of files) {
      const deleted = { kind: 'file.deleted', data: { file: FileRecordDto.from(file) } } as const;
      await this.events.publish({ manager: event.manager }, deleted);
    }
    await this.fileRecords.remove(files, event.manager);
    pendingKeys(event.queryRunner).push(...files.flatMap(storedKeysOf));
  }

  async afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const keys = pendingKeys(event.queryRunner).splice(0);
    const results = await Promise.allSettled(keys.map((key) => this.storage.delete(key)));
    results.forEach(
      (r, i) =>
        r.status === 'rejected' &&
        this.logger.warn({ err: r.reason as unknown, key: keys[i] }, 'Could not delete stored file'),
    );
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    pendingKeys(event.queryRunner).splice(0);
  }
}

function pendingKeys(queryRunner: QueryRunner): string[] {
  const data = queryRunner.data as Record<string, string[] | undefined>;
  return (data[PENDING_KEYS] ??= []);
}
