import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Principal } from '../../../../auth/principal.js';
import { asReal, FakeClock } from '../../../../common/testing/fakes.js';
import type { AttachmentOwners, ResolvedField } from '../../../fields/attachment-owners.js';
import type { FileFieldDefinition } from '../../../fields/file-field.decorator.js';
import { resolveFileFieldsOptions } from '../../../fields/file-fields.options.js';
import type { FilesService } from '../../../attach/files.service.js';
import type { ImageProbe } from '../../../images/probe/image-probe.js';
import type { StoredPart } from '../../../intake/inspection/upload-inspection.js';
import { LocalDiskStorage } from '../../../../storage/local-disk.storage.js';
import { FieldAdmission } from '../../../intake/admission/field-admission.js';
import { UploadInspection } from '../../../intake/inspection/upload-inspection.js';
import type { FileRecordsRepository } from '../../../records/file-records.repository.js';
import { LocalDiskResumableStorage } from '../storage/local-disk-resumable.storage.js';
import { UnfinishedStorage } from '../storage/unfinished-storage.js';
import type { UploadAdmission, UploadClaim } from '../../../intake/admission/open-upload-limits.js';
import { UploadSlots } from '../../../intake/admission/upload-slots.js';
import { FakeResumableUploadsRepository } from '../testing/fake-resumable-uploads.repository.js';
import { HashCarry } from './hash-carry.js';
import { ResumableUploads } from './resumable-uploads.service.js';
import { UploadCompletion } from './upload-completion.js';

const ALICE: Principal = { subject: 'user:1', clientId: 'c', scopes: ['article:write'] };
const TARGET = { attachmentType: 'article', attachmentId: 7, fieldName: 'attachments' };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('ResumableUploads', () => {
  let root: string;
  let rows: FakeResumableUploadsRepository;
  let clock: FakeClock;
  let attached: StoredPart[];
  let uploads: ResumableUploads;
  let field: FileFieldDefinition;
  let claims: UploadClaim[];

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'resumable-engine-'));
    const storage = new LocalDiskStorage(root);
    const options = resolveFileFieldsOptions({ storage, maxFileSize: 1_000_000 });
    rows = new FakeResumableUploadsRepository();
    clock = new FakeClock();
    attached = [];
    field = { name: 'attachments', multi: true, maxSize: 50_000 };
    const resolved = (): ResolvedField => ({
      owner: { type: 'article' } as ResolvedField['owner'],
      field,
      slot: { attachmentType: 'article', attachmentId: 7, field: 'attachments' },
    });
    const owners = { resolveField: resolved, assertExists: () => Promise.resolve() };
    const files = {
      assertRoomFor: () => Promise.resolve(),
      attach: async (_r: ResolvedField, _p: Principal, parts: StoredPart[], inTx?: (tx: never) => Promise<void>) => {
        attached.push(...parts);
        await inTx?.({ manager: undefined } as never);
        return { created: true, records: [{ id: 42 }] };
      },
    };
    const hashes = new HashCarry();
    const images = { inspect: () => Promise.resolve(null) };
    const completion = new UploadCompletion(
      files as unknown as FilesService,
      storage,
      asReal(rows),
      hashes,
      new UploadInspection(options, storage, images as unknown as ImageProbe),
    );
    claims = [];
    const admission = {
      admit: (claim: UploadClaim, open: (manager: never) => unknown) => {
        claims.push(claim);
        return open(undefined as never);
      },
    };
    const fields = new FieldAdmission(options, owners as unknown as AttachmentOwners, {} as FileRecordsRepository);
    uploads = new ResumableUploads(
      options,
      fields,
      asReal(rows),
      new UnfinishedStorage(new LocalDiskResumableStorage(root)),
      new UploadSlots(options),
      hashes,
      completion,
      admission as unknown as UploadAdmission,
      clock,
    );
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const create = (length: number | null) =>
    uploads.create(TARGET, ALICE, { protocol: 'tus', length, originalName: 'a.bin', metadata: null });

  it("refuses a length over the field's maximum before storing anything (413)", async () => {
    await expect(create(50_001)).rejects.toMatchObject({ status: 413, code: 'file-too-large' });
    expect(rows.rows.size).toBe(0);
  });

  it('claims room for the declared length, or for a length not declared yet (null), of its creator', async () => {
    await create(10);
    await create(null);
    expect(claims.map(({ subject, bytes }) => ({ subject, bytes }))).toEqual([
      { subject: ALICE.subject, bytes: 10 },
      { subject: ALICE.subject, bytes: null },
    ]);
  });

  it('finds an upload for its creator only: 404 for others and unknown ids, 403 without write, 410 once expired', async () => {
    const { id } = await create(10);
    await expect(uploads.find(id, ALICE)).resolves.toMatchObject({ offset: 0, declaredLength: 10 });
    await expect(uploads.find(id, { ...ALICE, subject: 'user:2' })).rejects.toMatchObject({ status: 404 });
    await expect(uploads.find('not-an-id', ALICE)).rejects.toMatchObject({ status: 404 });
    await expect(uploads.find(id, { ...ALICE, scopes: ['article:read'] })).rejects.toMatchObject({ status: 403 });
    clock.advance(24 * 3_600_000);
    await expect(uploads.find(id, ALICE)).rejects.toMatchObject({ status: 410, code: 'upload-expired' });
  });

  it('appends in order across requests and completes into one part with the whole sha256, removing its row', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(9000, 0x41)]);
    const { id, upload } = await create(bytes.length);
    const first = await uploads.append(upload, ALICE, { offset: 0, body: Readable.from([bytes.subarray(0, 5000)]) });
    expect(first).toMatchObject({ complete: false, upload: { offset: 5000, mimeType: 'application/pdf' } });
    await expect(
      uploads.append(await uploads.find(id, ALICE), ALICE, { offset: 4000, body: Readable.from([Buffer.alloc(1)]) }),
    ).rejects.toMatchObject({ status: 409 });
    const last = await uploads.append(await uploads.find(id, ALICE), ALICE, {
      offset: 5000,
      body: Readable.from([bytes.subarray(5000)]),
    });
    expect(last).toMatchObject({ complete: true, record: { id: 42 }, created: true });
    expect(attached).toEqual([
      expect.objectContaining({ size: bytes.length, checksumSha256: sha256(bytes), mimeType: 'application/pdf' }),
    ]);
    expect(rows.rows.size).toBe(0);
  });

  it('refuses a type the field does not take on its first bytes (415), ending the upload', async () => {
    field = { ...field, accept: ['image/*'] };
    const { upload } = await create(10_000);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x41)]);
    await expect(uploads.append(upload, ALICE, { offset: 0, body: Readable.from([pdf]) })).rejects.toMatchObject({
      status: 415,
    });
    expect(rows.rows.size).toBe(0);
    expect(await readdir(join(root, '.resumable'), { recursive: true })).not.toContainEqual(expect.stringMatching(/-/));
  });

  it('refuses a second append while one holds the upload (423), and discards a body whose checksum differs (460)', async () => {
    const { upload } = await create(100);
    const held = new Readable({ read() {} });
    const running = uploads.append(upload, ALICE, { offset: 0, body: held });
    await new Promise((resolve) => setImmediate(resolve));
    await expect(
      uploads.append(upload, ALICE, { offset: 0, body: Readable.from([Buffer.alloc(1)]) }),
    ).rejects.toMatchObject({ status: 423 });
    held.push(Buffer.alloc(10, 1));
    held.push(null);
    await expect(running).resolves.toMatchObject({ upload: { offset: 10 } });
    const checksum = { algorithm: 'sha256', digest: Buffer.alloc(32) };
    await expect(
      uploads.append(upload, ALICE, { offset: 10, body: Readable.from([Buffer.alloc(5, 2)]), checksum }),
    ).rejects.toMatchObject({ status: 460 });
    expect([...rows.rows.values()][0]).toMatchObject({ offset: 10, leaseToken: null });
  });

  it('undoes a creation whose own body is refused (413), and keeps one whose body broke off, to be resumed', async () => {
    const refused = await create(0);
    await expect(
      uploads.appendCreating(refused.upload, ALICE, { offset: 0, body: Readable.from([Buffer.alloc(48, 1)]) }),
    ).rejects.toMatchObject({ status: 413, code: 'upload-length-exceeded' });
    expect(rows.rows.size).toBe(0);

    const broken = await create(100);
    const body = new Readable({ read() {} });
    const appending = uploads.appendCreating(broken.upload, ALICE, { offset: 0, body });
    body.destroy(new Error('the connection closed'));
    await expect(appending).rejects.toMatchObject({ status: 400, code: 'upload-body-incomplete' });
    await expect(uploads.find(broken.id, ALICE)).resolves.toMatchObject({ declaredLength: 100 });
  });

  it('moves the expiry only when bytes are stored, and never past the lifetime from creation', async () => {
    const HOUR = 3_600_000;
    const { id, upload } = await create(100);
    const created = clock.nowMs();
    expect(upload.expiresAt).toBe(created + 24 * HOUR);
    clock.advance(HOUR);
    const empty = await uploads.append(upload, ALICE, { offset: 0, body: Readable.from([]) });
    expect(empty.upload.expiresAt).toBe(created + 24 * HOUR);
    // Bytes move it, but not past 24 hours from the creation (the lifetime), however recent they are.
    const bytes = await uploads.append(upload, ALICE, { offset: 0, body: Readable.from([Buffer.alloc(10, 1)]) });
    expect(bytes.upload.expiresAt).toBe(created + 24 * HOUR);
    clock.advance(23 * HOUR - 1);
    await expect(uploads.find(id, ALICE)).resolves.toMatchObject({ offset: 10 });
    clock.advance(1);
    await expect(uploads.find(id, ALICE)).rejects.toMatchObject({ status: 410, code: 'upload-expired' });
  });
});
