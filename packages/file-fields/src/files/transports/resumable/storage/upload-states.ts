/**
 * Where a storage keeps what it must know of an unfinished upload between requests, which any instance may serve:
 * a text in the upload's database row, changed only by compare-and-set.
 */
export interface UnfinishedUploadStates {
  /** The state saved for the upload with this storage key; null when none was, or no upload has the key. */
  storageState(storageKey: string): Promise<string | null>;
  /** Saves `next` if the saved state is still `expected`; false when it changed meanwhile or the upload is gone. */
  swapStorageState(storageKey: string, expected: string | null, next: string): Promise<boolean>;
}
