import { Clock } from '../../../common/clock.js';
import type { FilesService, UploadResult } from '../../attach/files.service.js';
import type { ImageProbe } from '../../images/probe/image-probe.js';
import { FakeFileStorage, principal } from '../../testing/file-fixtures.js';
import { filesFakes, PRODUCT_ID } from '../../testing/files-setup.js';
import { asReal } from '../../testing/in-memory-repositories.js';
import type { StoredPart } from '../../intake/inspection/upload-inspection.js';
import type { UploadAdmission, UploadClaim } from '../../intake/admission/open-upload-limits.js';
import { UploadSlots } from '../../intake/admission/upload-slots.js';
import type { DirectUpload } from './direct-upload.entity.js';
import type { DirectUploadsRepository, NewDirectUpload } from './direct-uploads.repository.js';
import { DirectUploadsService } from './direct-uploads.service.js';
import type { MultipartUploads, PartUrl, UploadedPart } from '../../intake/s3/multipart-uploads.js';
import { StorageMultipart } from '../../intake/s3/storage-multipart.js';
import { UploadInspection } from '../../intake/inspection/upload-inspection.js';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');

/** The work's result as a promise; what it throws, as a rejection (as an async method would). */
const resolved = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

/** S3 multipart uploads in memory: the parts a client PUT are set with `sent`. */
class FakeMultipart implements MultipartUploads {
  readonly open = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  readonly aborted: string[] = [];
  constructor(private readonly storage: FakeFileStorage) {}
  create(key: string): Promise<string> {
    const id = `s3-${this.open.size + 1}`;
    this.open.set(id, { key, parts: new Map() });
    return Promise.resolve(id);
  }
  presignParts(key: string, uploadId: string, size: number, partSize: number): Promise<PartUrl[]> {
    return resolved(() => [
      { partNumber: 1, url: `https://s3/${key}?uploadId=${uploadId}`, size: Math.min(size, partSize) },
    ]);
  }
  uploadPart(): Promise<string> {
    return Promise.reject(new Error('direct uploads send no part themselves'));
  }
  sent(uploadId: string, bytes: Buffer): void {
    this.open.get(uploadId)!.parts.set(1, bytes);
  }
  complete(key: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
    return resolved(() => {
      const upload = this.open.get(uploadId);
      if (!upload) throw Object.assign(new Error('gone'), { name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
      if (parts.some((part) => !upload.parts.has(part.partNumber))) {
        throw Object.assign(new Error('part not sent'), { name: 'InvalidPart' });
      }
      this.storage.objects.set(key, Buffer.concat([...upload.parts.values()]));
      this.open.delete(uploadId);
    });
  }
  abort(_key: string, uploadId: string): Promise<void> {
    return resolved(() => {
      this.aborted.push(uploadId);
      this.open.delete(uploadId);
    });
  }
  sizeOf(key: string): Promise<number | undefined> {
    return resolved(() => this.storage.objects.get(key)?.length);
  }
}

class FakeDirectUploads {
  readonly rows = new Map<number, DirectUpload>();
  insert(upload: NewDirectUpload): Promise<DirectUpload> {
    const row = { ...upload, id: this.rows.size + 1, completingAt: null };
    this.rows.set(row.id, row);
    return Promise.resolve(row);
  }
  findByHash(idHash: string): Promise<DirectUpload | null> {
    return resolved(() => [...this.rows.values()].find((row) => row.idHash === idHash) ?? null);
  }
  claim(id: number, now: number): Promise<boolean> {
    return resolved(() => {
      const row = this.rows.get(id);
      if (!row || row.completingAt !== null) return false;
      row.completingAt = now;
      return true;
    });
  }
  release(id: number): Promise<void> {
    return resolved(() => {
      const row = this.rows.get(id);
      if (row) row.completingAt = null;
    });
  }
  delete(id: number): Promise<void> {
    return resolved(() => void this.rows.delete(id));
  }
  expired(): Promise<DirectUpload[]> {
    return Promise.resolve([]);
  }
}

describe('DirectUploadsService', () => {
  const setup = (withMultipart = true) => {
    const fakes = filesFakes();
    const multipart = new FakeMultipart(fakes.storage);
    const rows = new FakeDirectUploads();
    const attached: StoredPart[][] = [];
    const files = {
      assertRoomFor: () => Promise.resolve(),
      attach: async (
        _field: unknown,
        _principal: unknown,
        parts: StoredPart[],
        also?: (tx: never) => Promise<void>,
      ) => {
        attached.push(parts);
        await also?.({ manager: undefined } as never);
        return { created: true, records: [] } as UploadResult;
      },
    } as unknown as FilesService;
    const clock = new Clock();
    const claims: Array<{ step: 'precheck' | 'admit'; claim: UploadClaim }> = [];
    const admission = {
      precheck: (claim: UploadClaim) => {
        claims.push({ step: 'precheck', claim });
        return Promise.resolve();
      },
      admit: (claim: UploadClaim, open: (manager: never) => unknown) => {
        claims.push({ step: 'admit', claim });
        return open(undefined as never);
      },
    } as unknown as UploadAdmission;
    const images = { inspect: () => Promise.resolve(null) } as unknown as ImageProbe;
    const inspection = new UploadInspection(fakes.options, fakes.storage, images);
    const service = new DirectUploadsService(
      fakes.options,
      fakes.admission,
      files,
      fakes.storage,
      new StorageMultipart(withMultipart ? multipart : undefined),
      asReal<DirectUploadsRepository>(rows),
      inspection,
      new UploadSlots(fakes.options),
      admission,
      clock,
    );
    const target = { attachmentType: 'product', attachmentId: PRODUCT_ID, fieldName: 'pages' };
    const writer = principal('product:write');
    const start = (size = PDF.length, content_type = 'application/pdf') =>
      service.start(target, writer, { filename: 'a.pdf', content_type, size });
    const s3IdOf = () => [...rows.rows.values()].at(-1)!.s3UploadId;
    return { ...fakes, service, multipart, rows, attached, clock, writer, start, s3IdOf, claims };
  };
  const part1 = [{ partNumber: 1, etag: '"1"' }];

  it('records a file whose parts were sent, and forgets the upload with the record', async () => {
    const { service, multipart, rows, attached, writer, start, s3IdOf } = setup();
    const started = await start();
    expect(started.id).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect([...rows.rows.values()][0].idHash).not.toContain(started.id);
    multipart.sent(s3IdOf(), PDF);
    await service.complete(started.id, writer, part1);
    expect(attached[0][0]).toMatchObject({ mimeType: 'application/pdf', size: PDF.length, originalName: 'a.pdf' });
    expect(rows.rows.size).toBe(0);
  });

  it("claims room for the declared size of its starter's upload, in the precheck and again with the insert", async () => {
    const { start, claims, multipart, writer } = setup();
    await start(1234);
    expect(claims.map(({ step, claim }) => ({ step, subject: claim.subject, bytes: claim.bytes }))).toEqual([
      { step: 'precheck', subject: writer.subject, bytes: 1234 },
      { step: 'admit', subject: writer.subject, bytes: 1234 },
    ]);
    expect(multipart.open.size).toBe(1);
  });

  it('answers 409 on storage without multipart uploads, before anything else', async () => {
    const { start } = setup(false);
    await expect(start()).rejects.toMatchObject({ status: 409, code: 'direct-uploads-unavailable' });
  });

  it('refuses an over-size or refused declared file before starting a multipart upload', async () => {
    const { start, multipart, options } = setup();
    await expect(start(options.maxFileSize + 1)).rejects.toMatchObject({ status: 413 });
    await expect(start(10, 'text/html')).rejects.toMatchObject({ status: 415 });
    expect(multipart.open.size).toBe(0);
  });

  it('answers 404 to another principal and after expiry, and 403 without write', async () => {
    const { service, start, clock } = setup();
    const { id } = await start();
    const other = { ...principal('product:write'), subject: 'user:2' };
    await expect(service.complete(id, other, part1)).rejects.toMatchObject({ status: 404 });
    await expect(service.complete(id, principal('product:read'), part1)).rejects.toMatchObject({ status: 403 });
    clock.nowMs = () => Date.now() + 2 * 3_600_000;
    await expect(service.complete(id, principal('product:write'), part1)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a second completion while one runs (409), and lets a refused part list be resent', async () => {
    const { service, multipart, rows, writer, start, s3IdOf } = setup();
    const { id } = await start();
    await expect(service.complete(id, writer, part1)).rejects.toMatchObject({ status: 400 });
    expect([...rows.rows.values()][0].completingAt).toBeNull();
    await rows.claim([...rows.rows.values()][0].id, 1);
    multipart.sent(s3IdOf(), PDF);
    await expect(service.complete(id, writer, part1)).rejects.toMatchObject({ status: 409 });
  });

  it('deletes the object and forgets the upload when the type or size is wrong', async () => {
    const { service, multipart, rows, storage, writer, start, s3IdOf } = setup();
    const text = await start(12);
    multipart.sent(s3IdOf(), Buffer.from('<html></html>'.slice(0, 12)));
    await expect(service.complete(text.id, writer, part1)).rejects.toMatchObject({ status: 415 });
    const short = await start();
    multipart.sent(s3IdOf(), PDF.subarray(1));
    await expect(service.complete(short.id, writer, part1)).rejects.toMatchObject({ status: 422 });
    expect(storage.objects.size).toBe(0);
    expect(storage.deleted).toHaveLength(2);
    expect(rows.rows.size).toBe(0);
  });

  it('cancels: aborts the multipart upload and forgets it', async () => {
    const { service, multipart, rows, writer, start, s3IdOf } = setup();
    const { id } = await start();
    const s3Id = s3IdOf();
    await service.cancel(id, writer);
    expect(multipart.aborted).toEqual([s3Id]);
    expect(rows.rows.size).toBe(0);
    await expect(service.cancel(id, writer)).rejects.toMatchObject({ status: 404 });
  });
});
