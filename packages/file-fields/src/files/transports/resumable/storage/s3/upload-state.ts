/** S3's smallest part but the last: a shorter remainder waits in a tail object for the next request. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/**
 * A request's body is sent in parts of this size as it arrives, each spooled to a temporary file first; with 10,000
 * parts at most per S3 upload, parts this size carry up to 156 GiB (requests that each end near 5 MiB, 48 GiB).
 */
export const PART_BYTES = 16 * 1024 * 1024;
/** S3's most parts per upload. */
export const MAX_PARTS = 10_000;

export interface UploadedPart {
  number: number;
  etag: string;
  size: number;
}

/** The bytes past the last part, shorter than a part, in an object of their own (`name`: under the upload's area). */
export interface Tail {
  name: string;
  size: number;
}

/** Where an upload stood before the last request that changed its state: its first `parts`, then `tail`. */
interface Snapshot {
  at: number;
  parts: number;
  tail: Tail | null;
}

/**
 * An unfinished upload on S3, kept as JSON in its database row: the multipart upload, the parts sent, the tail, and
 * the state before the last request, to go back to when the engine kept that request's bytes out (a checksum that
 * did not match, a lease lost). Parts past that earlier state are simply sent again under their numbers.
 */
export interface S3UploadState {
  uploadId: string | null;
  parts: UploadedPart[];
  tail: Tail | null;
  at: number;
  before: Snapshot | null;
}

/** Where a request starts: the parts and tail that hold the upload's bytes up to its offset. */
export interface Base {
  uploadId: string | null;
  parts: UploadedPart[];
  tail: Tail | null;
  at: number;
}

export function parseState(text: string | null): S3UploadState | null {
  return text === null ? null : (JSON.parse(text) as S3UploadState);
}

/**
 * The state to append at `offset`: the current one, or the one before the last request when the engine kept that
 * request's bytes out. A state at neither is unknown to this upload: only offset 0 can start over from nothing.
 */
export function baseAt(state: S3UploadState | null, offset: number): Base | undefined {
  if (state?.at === offset) return { uploadId: state.uploadId, parts: state.parts, tail: state.tail, at: offset };
  if (state?.before?.at === offset) {
    const { parts, tail } = state.before;
    return { uploadId: state.uploadId, parts: state.parts.slice(0, parts), tail, at: offset };
  }
  if (offset === 0) return { uploadId: state?.uploadId ?? null, parts: [], tail: null, at: 0 };
  return undefined;
}

/** The state after a request that went on from `base`, sent `parts` and left `tail`. */
export function advance(base: Base, uploadId: string | null, parts: UploadedPart[], tail: Tail | null): S3UploadState {
  const all = [...base.parts, ...parts];
  const at = all.reduce((sum, part) => sum + part.size, 0) + (tail?.size ?? 0);
  return { uploadId, parts: all, tail, at, before: { at: base.at, parts: base.parts.length, tail: base.tail } };
}

/** Tail objects the old state refers to and the new one no longer does: they can go. */
export function droppedTails(old: S3UploadState | null, next: S3UploadState): string[] {
  const kept = new Set([next.tail?.name, next.before?.tail?.name]);
  const referenced = new Set([old?.tail?.name, old?.before?.tail?.name]);
  return [...referenced].filter((name): name is string => name !== undefined && !kept.has(name));
}

/** What a request's last bytes become: a part when S3 takes one that size, else the tail. */
export function remainderIsPart(size: number): boolean {
  return size >= MIN_PART_BYTES;
}
