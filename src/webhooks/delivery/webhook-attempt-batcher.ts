import type { Logger } from '@nestjs/common';
import type { AttemptOutcome, WebhookAttemptRecorder } from './webhook-attempt-recorder.js';

/** How long an ended attempt may wait for others to be stored with (it is sent already: only its record waits). */
const RECORD_WAIT_MS = 5;

/** Attempts stored in one transaction at most. */
const RECORD_BATCH = 200;

/**
 * Stores the dispatcher's attempts in batches: those that end while the previous batch is being stored, or within a
 * few milliseconds of each other while other requests are open (on PostgreSQL, successes go in one statement).
 */
export class WebhookAttemptBatcher {
  private toRecord: Array<{ outcome: AttemptOutcome; stored: () => void }> = [];
  private recording = false;
  private timer?: NodeJS.Timeout;

  /** `othersOpen` tells whether other requests are open, whose answers are then likely to come soon. */
  constructor(
    private readonly recorder: WebhookAttemptRecorder,
    private readonly logger: Logger,
    private readonly othersOpen: () => boolean,
  ) {}

  /** Resolves once the attempt is stored, or once storing its batch failed (logged). */
  record(outcome: AttemptOutcome): Promise<void> {
    return new Promise((stored) => {
      this.toRecord.push({ outcome, stored });
      if (!this.othersOpen() || this.toRecord.length >= RECORD_BATCH) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), RECORD_WAIT_MS);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.recording || this.toRecord.length === 0) return;
    this.recording = true;
    const batch = this.toRecord.splice(0, RECORD_BATCH);
    void this.recorder
      .recordAttempts(batch.map(({ outcome }) => outcome))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'Recording webhook attempts failed'))
      .finally(() => {
        this.recording = false;
        for (const { stored } of batch) stored();
        this.flush();
      });
  }
}
