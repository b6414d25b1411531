import { FilesError, FilesErrorCode } from '../../errors/files.errors.js';
import { FilesService } from './files.service.js';
import type { UploadTarget } from '../intake/admission/field-admission.js';
import { UploadInspection } from '../intake/inspection/upload-inspection.js';
import { MultipartUploads } from '../transports/multipart/multipart-uploads.js';
import type { MultipartReceiver } from '../transports/multipart/multipart-receiver.js';
import type { ImageProbe } from '../images/probe/image-probe.js';
import { fakeExchange, principal } from '../testing/file-fixtures.js';
import { cover, filesFakes, gallery, pages, PRODUCT_ID } from '../testing/files-setup.js';
import { asReal } from '../testing/in-memory-repositories.js';
import { UploadSlots } from '../intake/admission/upload-slots.js';
import type { FileVariants } from '../images/variants/file-variants.service.js';

describe('FilesService', () => {
  const setup = () => {
    const fakes = filesFakes();
    const { options, owners, admission, fileRecords, storage, receiver, unitOfWork, events } = fakes;
    const variantsAsked: number[][] = [];
    const service = new FilesService(owners, admission, asReal(fileRecords), storage, unitOfWork, events, {
      produceLater: (records) => void variantsAsked.push(records.map((r) => r.id)),
    } as Pick<FileVariants, 'produceLater'> as FileVariants);
    // Files reach attach through a transport: multipart, whose receiver is faked.
    const multipart = new MultipartUploads(
      admission,
      new UploadInspection(options, storage, {} as ImageProbe),
      asReal<MultipartReceiver>(receiver),
      new UploadSlots(options),
      service,
    );
    const upload = (field: string, ...names: string[]) => {
      receiver.sends(...names.map((name) => ({ name, content: `bytes of ${name}` })));
      const target: UploadTarget = { attachmentType: 'product', attachmentId: PRODUCT_ID, fieldName: field };
      const { req, res } = fakeExchange();
      return multipart.upload(target, principal('product:write'), req, res);
    };
    return { ...fakes, upload, variantsAsked };
  };
  const failsWith = (code: FilesErrorCode) => expect.objectContaining({ code }) as unknown as FilesError;

  it('creates the record of an empty single field, then replaces its file keeping the id', async () => {
    const { upload, storage, fileRecords } = setup();
    const first = await upload('cover', 'a.png');
    expect(first.created).toBe(true);
    const [created] = first.records;
    expect(created).toMatchObject({ ...cover, sortOrder: 0, originalName: 'a.png' });

    const second = await upload('cover', 'b.png');
    expect(second.created).toBe(false);
    expect(second.records).toEqual([expect.objectContaining({ id: created.id, sortOrder: 0, originalName: 'b.png' })]);
    expect(fileRecords.idsInField(cover)).toEqual([created.id]);
    expect(fileRecords.byId(created.id).storageKey).not.toBe(created.storageKey);
    // The replaced bytes go once the new record is committed; the new ones stay.
    expect(storage.deleted).toEqual([created.storageKey]);
    expect(storage.objects.has(fileRecords.byId(created.id).storageKey)).toBe(true);
  });

  it("removes a replaced file's image variants with it, and asks for the new file's after commit", async () => {
    const { upload, storage, fileRecords, variantsAsked } = setup();
    const [created] = (await upload('cover', 'a.png')).records;
    expect(variantsAsked).toEqual([[created.id]]);
    const thumb = { key: `${created.storageKey}.thumb-0123456789.png`, width: 2, height: 2, size: 9 };
    fileRecords.byId(created.id).variants = {
      thumb: { ...thumb, mimeType: 'image/png', checksumSha256: '1'.repeat(64) },
    };
    await upload('cover', 'b.png');
    expect(storage.deleted.sort()).toEqual([created.storageKey, thumb.key].sort());
    expect(fileRecords.byId(created.id).variants).toBeNull();
    expect(variantsAsked).toEqual([[created.id], [created.id]]);
  });

  it('asks for no variants when the transaction fails', async () => {
    const { upload, receiver, ownerRows, variantsAsked } = setup();
    receiver.whileReceiving = () => ownerRows.remove('product', PRODUCT_ID);
    await expect(upload('pages', 'a.png')).rejects.toEqual(failsWith(FilesErrorCode.EntityNotFound));
    expect(variantsAsked).toEqual([]);
  });

  it('appends to a multi field after the files it holds, in the order of the parts', async () => {
    const { upload, fileRecords } = setup();
    const [first] = (await upload('pages', 'p1.png')).records;
    const second = await upload('pages', 'p2.png', 'p3.png');
    expect(second.created).toBe(true);
    expect(second.records.map((file) => [file.originalName, file.sortOrder])).toEqual([
      ['p2.png', 1],
      ['p3.png', 2],
    ]);
    expect(fileRecords.idsInField(pages)).toEqual([first.id, ...second.records.map((file) => file.id)]);
  });

  it('answers 409 for a full field before reading a byte of the request', async () => {
    const { upload, fileRecords, receiver, storage } = setup();
    for (const position of [0, 1, 2]) fileRecords.add(gallery, position);
    await expect(upload('gallery', 'one-too-many.png')).rejects.toEqual(failsWith(FilesErrorCode.FieldFull));
    expect(receiver.received).toEqual([]);
    expect(storage.objects.size).toBe(0);
  });

  it('refuses parts that would overfill the field once read, and deletes their bytes', async () => {
    const { upload, fileRecords, storage } = setup();
    fileRecords.add(gallery, 0);
    await expect(upload('gallery', 'a.png', 'b.png', 'c.png')).rejects.toEqual(failsWith(FilesErrorCode.FieldFull));
    expect(storage.objects.size).toBe(0);
    expect(storage.deleted).toHaveLength(3);
    expect(fileRecords.idsInField(gallery)).toHaveLength(1);
  });

  it('deletes the stored bytes when the transaction fails (the entity went away during the upload)', async () => {
    const { upload, receiver, ownerRows, storage, fileRecords, events } = setup();
    receiver.whileReceiving = () => ownerRows.remove('product', PRODUCT_ID);
    await expect(upload('pages', 'a.png', 'b.png')).rejects.toEqual(failsWith(FilesErrorCode.EntityNotFound));
    expect(storage.deleted).toHaveLength(2);
    expect(storage.objects.size).toBe(0);
    expect(fileRecords.rows).toEqual([]);
    expect(events.published).toEqual([]);
  });

  it('locks the entity in the transaction that attaches the files', async () => {
    const { upload, ownerRows } = setup();
    await upload('cover', 'a.png');
    expect(ownerRows.locked).toEqual([`product:${PRODUCT_ID}`]);
  });

  it('publishes one event per file: file.created when added, file.updated when replaced', async () => {
    const { upload, events } = setup();
    const added = await upload('pages', 'a.png', 'b.png', 'c.png');
    const [coverFile] = (await upload('cover', 'c1.png')).records;
    await upload('cover', 'c2.png');
    expect(events.published.map((event) => [event.kind, (event.data.file as { id: number }).id])).toEqual([
      ...added.records.map((file) => ['file.created', file.id]),
      ['file.created', coverFile.id],
      ['file.updated', coverFile.id],
    ]);
    expect(events.published[4].data.file).toMatchObject({ id: coverFile.id, original_name: 'c2.png' });
  });

  it('answers 404 for an entity that does not exist, before reading the request', async () => {
    const { upload, ownerRows, receiver } = setup();
    ownerRows.remove('product', PRODUCT_ID);
    await expect(upload('cover', 'a.png')).rejects.toEqual(failsWith(FilesErrorCode.EntityNotFound));
    expect(receiver.received).toEqual([]);
  });
});
