import { InsufficientScopeError } from '../../auth/auth.errors.js';
import { FileChangesService } from './file-changes.service.js';
import { FilesError, FilesErrorCode } from '../../errors/files.errors.js';
import { principal } from '../testing/file-fixtures.js';
import { cover, filesFakes, gallery, PRODUCT_ID } from '../testing/files-setup.js';
import { asReal } from '../testing/in-memory-repositories.js';

describe('FileChangesService', () => {
  const setup = () => {
    const fakes = filesFakes();
    const { registry, owners, fileRecords, storage, unitOfWork, events } = fakes;
    const service = new FileChangesService(asReal(registry), owners, asReal(fileRecords), storage, unitOfWork, events);
    const [a, b, c] = [0, 1, 2].map((position) => fileRecords.add(gallery, position));
    return { ...fakes, service, a, b, c };
  };
  const failsWith = (code: FilesErrorCode) => expect.objectContaining({ code }) as unknown as FilesError;
  const writer = principal('product:write');

  describe('delete', () => {
    it('removes the file, renumbers the rest 0..n-1, publishes file.deleted and deletes the bytes', async () => {
      const { service, fileRecords, storage, events, a, b, c } = setup();
      const removed = await service.delete(writer, a.id);
      expect(removed).toMatchObject({ id: a.id, storageKey: a.storageKey });
      expect(fileRecords.idsInField(gallery)).toEqual([b.id, c.id]);
      expect([b.id, c.id].map((id) => fileRecords.byId(id).sortOrder)).toEqual([0, 1]);
      expect(events.published).toEqual([
        { kind: 'file.deleted', data: { file: expect.objectContaining({ id: a.id, sort_order: 0 }) } },
      ]);
      expect(storage.deleted).toEqual([a.storageKey]);
    });

    it('deletes the image variants of the file with it', async () => {
      const { service, fileRecords, storage } = setup();
      const thumb = { key: 'product/1/photo.thumb-0123456789.png', width: 2, height: 2, size: 9 };
      const variants = { thumb: { ...thumb, mimeType: 'image/png', checksumSha256: '1'.repeat(64) } };
      const photo = fileRecords.add(cover, 0, { storageKey: 'product/1/photo', variants });
      await service.delete(writer, photo.id);
      expect(storage.deleted.sort()).toEqual(['product/1/photo', thumb.key]);
    });

    it('leaves the other fields of the entity alone', async () => {
      const { service, fileRecords, b } = setup();
      const single = fileRecords.add(cover, 0);
      await service.delete(writer, b.id);
      expect(fileRecords.idsInField(cover)).toEqual([single.id]);
    });

    it('still deletes a file whose entity is gone', async () => {
      const { service, ownerRows, fileRecords, b } = setup();
      ownerRows.remove('product', PRODUCT_ID);
      await service.delete(writer, b.id);
      expect(fileRecords.idsInField(gallery)).not.toContain(b.id);
    });

    it('answers 404 to a principal that may not even read files of the type, and changes nothing', async () => {
      const { service, fileRecords, storage, events, a } = setup();
      await expect(service.delete(principal('article:write'), a.id)).rejects.toEqual(
        failsWith(FilesErrorCode.FileNotFound),
      );
      await expect(service.delete(writer, 999)).rejects.toEqual(failsWith(FilesErrorCode.FileNotFound));
      expect(fileRecords.rows).toHaveLength(3);
      expect(storage.deleted).toEqual([]);
      expect(events.published).toEqual([]);
    });

    it('answers 403 to a principal that may read but not write, and changes nothing', async () => {
      const { service, fileRecords, events, a } = setup();
      await expect(service.delete(principal('product:read'), a.id)).rejects.toBeInstanceOf(InsufficientScopeError);
      expect(fileRecords.rows).toHaveLength(3);
      expect(events.published).toEqual([]);
    });
  });

  describe('reorder', () => {
    it('moves every file to its new position in two passes, as the unique position index requires', async () => {
      const { service, fileRecords, events, a, b, c } = setup();
      const reordered = await service.reorder(writer, 'product', PRODUCT_ID, 'gallery', [c.id, a.id, b.id]);
      expect(reordered.map((file) => [file.id, file.sortOrder])).toEqual([
        [c.id, 0],
        [a.id, 1],
        [b.id, 2],
      ]);
      expect(fileRecords.idsInField(gallery)).toEqual([c.id, a.id, b.id]);
      expect(events.published).toEqual([
        {
          kind: 'file.reordered',
          data: {
            attachment_type: 'product',
            attachment_id: PRODUCT_ID,
            field: 'gallery',
            files: [c.id, a.id, b.id].map((id) => expect.objectContaining({ id })),
          },
        },
      ]);
    });

    it('refuses an order that does not name exactly the current files', async () => {
      const { service, fileRecords, a, b, c } = setup();
      for (const ids of [
        [a.id, b.id],
        [a.id, b.id, c.id, 99],
        [a.id, b.id, 99],
      ]) {
        await expect(service.reorder(writer, 'product', PRODUCT_ID, 'gallery', ids)).rejects.toEqual(
          failsWith(FilesErrorCode.OrderMismatch),
        );
      }
      expect(fileRecords.idsInField(gallery)).toEqual([a.id, b.id, c.id]);
    });

    it('refuses a single field, and answers 404 for a missing entity', async () => {
      const { service, ownerRows } = setup();
      await expect(service.reorder(writer, 'product', PRODUCT_ID, 'cover', [])).rejects.toEqual(
        failsWith(FilesErrorCode.NotMultiField),
      );
      ownerRows.remove('product', PRODUCT_ID);
      await expect(service.reorder(writer, 'product', PRODUCT_ID, 'gallery', [])).rejects.toEqual(
        failsWith(FilesErrorCode.EntityNotFound),
      );
    });
  });
});
