import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../../common/clock.js';
import type { LeasedChanges, ResumableUploadsRepository } from '../state/resumable-uploads.repository.js';
import { ResumableError, ResumableErrorCode } from '../resumable.errors.js';

/**
 * How long a request holds an upload without renewing: short, so that a request whose instance died frees it soon;
 * renewed at a third of it while the body streams, so that a slow body keeps it.
 */
const LEASE_MS = 30_000;

/**
 * One request's hold on an upload: taken by an atomic UPDATE on the row (any instance, no transaction held open
 * while the body streams), renewed while it runs, and given back with the request's progress.
 */
export class UploadLease {
  private readonly timer: NodeJS.Timeout;
  private lost?: () => void;

  private constructor(
    private readonly rows: ResumableUploadsRepository,
    private readonly clock: Clock,
    private readonly uploadId: number,
    private readonly token: string,
  ) {
    this.timer = setInterval(() => void this.renew(), LEASE_MS / 3);
    this.timer.unref();
  }

  /** The lease, or 423 when another request holds the upload. */
  static async take(rows: ResumableUploadsRepository, clock: Clock, uploadId: number): Promise<UploadLease> {
    const token = randomUUID();
    const now = clock.nowMs();
    if (!(await rows.takeLease(uploadId, token, now, now + LEASE_MS))) {
      throw new ResumableError(
        ResumableErrorCode.UploadLocked,
        'Another request is appending to this upload; retry once it has ended.',
      );
    }
    return new UploadLease(rows, clock, uploadId, token);
  }

  /** Called once if a renewal finds the lease gone (this instance stalled past it): the request must stop. */
  onLost(handler: () => void): void {
    this.lost = handler;
  }

  /** Writes the changes and frees the upload; false when the lease had been lost meanwhile (nothing written). */
  async release(changes: LeasedChanges): Promise<boolean> {
    clearInterval(this.timer);
    return this.rows.release(this.uploadId, this.token, changes);
  }

  /** Stops renewing, for an upload that no longer exists (completed or cancelled). */
  end(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    const held = await this.rows.renewLease(this.uploadId, this.token, this.clock.nowMs() + LEASE_MS).catch(() => true);
    if (held) return;
    clearInterval(this.timer);
    this.lost?.();
  }
}
