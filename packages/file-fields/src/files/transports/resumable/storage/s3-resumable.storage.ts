import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { assertSafeKey, type S3Bucket, type StoredObject } from '../../../../storage/file-storage.js';
import { HEAD_BYTES, PartsAppend } from './s3/parts-append.js';
import { UnfinishedObjects } from './s3/unfinished-objects.js';
import { baseAt, droppedTails, parseState } from './s3/upload-state.js';
import { ResumableStorage, type AppendOutcome } from './resumable-storage.js';
import type { UnfinishedUploadStates } from './upload-states.js';

/**
 * Unfinished uploads on S3, through a multipart upload on the file's own key. The S3 upload id and the parts sent
 * (number, ETag, size) are kept in the upload's database row, so that any instance goes on with any upload; the
 * bytes of a request are spooled to temporary files (never held in memory) and sent as parts of 16 MiB as they fill;
 * the last bytes, shorter than S3's 5 MiB minimum part, wait in a tail object under `.resumable/<key>/` for the next
 * request, which reads them back first (wherever it runs), and become the last part at completion.
 */
export class S3ResumableStorage extends ResumableStorage {
  private readonly objects: UnfinishedObjects;

  constructor(
    bucket: S3Bucket,
    private readonly states: UnfinishedUploadStates,
    private readonly tempRoot = tmpdir(),
  ) {
    super();
    this.objects = new UnfinishedObjects(bucket);
  }

  async append(key: string, offset: number, body: Readable): Promise<AppendOutcome> {
    // Resolves whatever fails (the interface's promise): the database or the temporary directory, as the bucket.
    return this.appendAt(key, offset, body).catch((error: unknown) => ({ written: 0, error }));
  }

  private async appendAt(key: string, offset: number, body: Readable): Promise<AppendOutcome> {
    assertSafeKey(key);
    const saved = await this.states.storageState(key);
    const old = parseState(saved);
    const base = baseAt(old, offset);
    if (!base) return { written: 0, error: new Error(`The stored state of ${key} is not at offset ${offset}`) };
    const dir = await mkdtemp(join(this.tempRoot, 'resumable-s3-'));
    try {
      const { next, error } = await new PartsAppend(this.objects, key, base, dir).run(body);
      if (!next) return { written: 0, error };
      if (!(await this.states.swapStorageState(key, saved, JSON.stringify(next)))) {
        if (next.tail && next.tail.name !== base.tail?.name) await this.objects.delete(next.tail.name).catch(noop);
        return { written: 0, error: error ?? new Error(`Another request changed the upload ${key} meanwhile`) };
      }
      await Promise.all(droppedTails(old, next).map((name) => this.objects.delete(name).catch(noop)));
      return { written: next.at - offset, error };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** From the tail while no part was sent, else from the head object (part 1's first bytes). */
  async readHead(key: string, bytes: number): Promise<Buffer> {
    assertSafeKey(key);
    const state = parseState(await this.states.storageState(key));
    if (!state || state.at === 0) return Buffer.alloc(0);
    if (state.parts.length === 0) return this.objects.readStart(key, state.tail?.name, bytes);
    return this.objects.readStart(key, undefined, Math.min(bytes, HEAD_BYTES));
  }

  /** Completes the S3 upload with the tail as its last part; a file shorter than a part is its tail, copied. */
  async finish(key: string): Promise<void> {
    assertSafeKey(key);
    const state = parseState(await this.states.storageState(key));
    if (!state?.uploadId || state.parts.length === 0) {
      await this.objects.storeSmall(key, state?.tail?.name);
      if (state?.uploadId) await this.objects.abortUpload(key, state.uploadId).catch(noop);
    } else {
      const parts = [...state.parts];
      if (state.tail) {
        const number = parts.length + 1;
        const body = await this.objects.read(state.tail.name);
        const etag = await this.objects.uploadPart(key, state.uploadId, number, body, state.tail.size);
        parts.push({ number, etag, size: state.tail.size });
      }
      await this.objects.complete(key, state.uploadId, parts);
    }
    // Left behind only if this fails: the sweep removes objects under the prefix that no upload refers to.
    await this.objects.removeArea(key).catch(noop);
  }

  /** Aborts the S3 upload (the one the row names, and the one the head object names) and removes the objects. */
  async abort(key: string): Promise<void> {
    assertSafeKey(key);
    const state = parseState(await this.states.storageState(key));
    const ids = new Set([state?.uploadId, await this.objects.namedUpload(key)]);
    for (const id of ids) if (id) await this.objects.abortUpload(key, id);
    await this.objects.removeArea(key);
  }

  list(): AsyncIterable<StoredObject> {
    return this.objects.list();
  }
}

const noop = () => undefined;
