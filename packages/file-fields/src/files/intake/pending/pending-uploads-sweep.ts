import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { UnitOfWork } from '../../../database/unit-of-work.js';
import { AttachmentOwners } from '../../fields/attachment-owners.js';
import { FileFieldRegistry } from '../../fields/file-field.registry.js';
import type { PendingUpload } from './pending-upload.entity.js';
import { PENDING_UPLOAD_KINDS, type PendingUploadKind } from './pending-upload-kind.js';

export interface PendingSweepReport {
  /** Storage keys of the expired uploads ended (in a dry run: of the first batch due). */
  expired: string[];
  /** Stray bytes removed (in a dry run: that would be). */
  strays: string[];
}

const BATCH = 100;

/**
 * Ends pending uploads whose time ran out, every kind in the same order: its bytes first (a failure leaves the row,
 * and the next sweep tries again: the row is what names the bytes), then its row, in a transaction that first locks
 * the owner entity's row, the order of every change to an entity's files (uploads, deletes, FileCleanupSubscriber),
 * so that on PostgreSQL a sweep and a completion or an entity's delete wait for each other rather than deadlock.
 */
@Injectable()
export class PendingUploadsSweep {
  constructor(
    @Inject(PENDING_UPLOAD_KINDS) private readonly kinds: PendingUploadKind[],
    private readonly unitOfWork: UnitOfWork,
    private readonly owners: AttachmentOwners,
    private readonly registry: FileFieldRegistry,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  async sweep(graceCutoffMs: number, dryRun: boolean): Promise<Map<PendingUploadKind['name'], PendingSweepReport>> {
    const reports = new Map<PendingUploadKind['name'], PendingSweepReport>();
    for (const kind of this.kinds) {
      const expired = await this.sweepExpired(kind, dryRun);
      const strays = (await kind.sweepStrays?.(graceCutoffMs, dryRun)) ?? [];
      reports.set(kind.name, { expired, strays });
    }
    return reports;
  }

  private async sweepExpired(kind: PendingUploadKind, dryRun: boolean): Promise<string[]> {
    const ended: string[] = [];
    for (;;) {
      const batch = await kind.expired(this.clock.nowMs(), BATCH);
      if (dryRun) return batch.map((upload) => upload.storageKey);
      let endedNow = 0;
      for (const upload of batch) {
        try {
          await kind.dropBytes(upload);
          await this.deleteRow(kind, upload);
          ended.push(upload.storageKey);
          endedNow += 1;
        } catch {
          // The storage or the database is failing: the upload stays expired, and the next sweep tries again.
        }
      }
      // Stop when a batch ended none (all failing): the next one would be the same.
      if (batch.length < BATCH || endedNow === 0) return ended;
    }
  }

  private deleteRow(kind: PendingUploadKind, upload: PendingUpload): Promise<void> {
    return this.unitOfWork.run(async (tx) => {
      const owner = this.registry.get(upload.attachmentType);
      if (owner) await this.owners.lock(tx, owner, upload.attachmentId);
      await kind.deleteRow(upload.id, tx.manager);
    });
  }
}
