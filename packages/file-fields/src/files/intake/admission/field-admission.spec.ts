import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { AttachmentOwners } from '../../fields/attachment-owners.js';
import { resolveFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FakeFileFieldRegistry, FakeFileStorage } from '../../testing/file-fixtures.js';
import {
  asReal,
  FakeAttachmentOwnersRepository,
  FakeFileRecordsRepository,
} from '../../testing/in-memory-repositories.js';
import { FieldAdmission } from './field-admission.js';

describe('FieldAdmission', () => {
  const setup = () => {
    const storage = new FakeFileStorage();
    const options = resolveFileFieldsOptions({ storage, maxFileSize: 10_000 });
    const registry = new FakeFileFieldRegistry({
      article: [
        { name: 'pdf', multi: false, accept: ['application/pdf'], maxSize: 1_000 },
        { name: 'photos', multi: true, maxCount: 2 },
        { name: 'any', multi: true },
      ],
    });
    const ownerRows = new FakeAttachmentOwnersRepository();
    ownerRows.add('article', 7);
    const fileRecords = new FakeFileRecordsRepository();
    const owners = new AttachmentOwners(asReal(registry), asReal(ownerRows));
    const admission = new FieldAdmission(options, owners, asReal(fileRecords));
    return { admission, fileRecords };
  };
  const target = (fieldName: string, attachmentId = 7, attachmentType = 'article') => ({
    attachmentType,
    attachmentId,
    fieldName,
  });
  const failsWith = (code: FilesErrorCode) => expect.objectContaining({ code }) as unknown as FilesError;

  it('resolves the field of an existing entity with the rules its bytes will meet', async () => {
    const { admission } = setup();
    const admitted = await admission.admit(target('pdf'));
    expect(admitted.slot).toEqual({ attachmentType: 'article', attachmentId: 7, field: 'pdf' });
    expect(admitted.rules).toMatchObject({ maxSize: 1_000, accept: ['application/pdf'], maxFilesPerRequest: 1 });
    // The application's limit caps a field that names none.
    expect((await admission.admit(target('any'))).rules.maxSize).toBe(10_000);
  });

  it('answers 404 for an unknown type, an unknown field and a missing entity, in that order', async () => {
    const { admission } = setup();
    await expect(admission.admit(target('pdf', 7, 'nothing'))).rejects.toEqual(
      failsWith(FilesErrorCode.UnknownAttachmentType),
    );
    await expect(admission.admit(target('nothing', 99))).rejects.toEqual(failsWith(FilesErrorCode.UnknownFileField));
    await expect(admission.admit(target('pdf', 99))).rejects.toEqual(failsWith(FilesErrorCode.EntityNotFound));
  });

  it('refuses a declared length over the limit (413) and a declared type the field refuses (415)', async () => {
    const { admission } = setup();
    await expect(admission.admit(target('pdf'), { name: 'a.pdf', size: 1_001 })).rejects.toEqual(
      failsWith(FilesErrorCode.FileTooLarge),
    );
    await expect(admission.admit(target('pdf'), { name: 'a.png', size: 10, type: 'image/png' })).rejects.toThrow(
      /"a.png" is image\/png; this field accepts application\/pdf/,
    );
    // A length not known yet is not refused: the bytes are counted as they come.
    await expect(admission.admit(target('pdf'), { name: 'a.pdf', size: null })).resolves.toBeDefined();
    await expect(
      admission.admit(target('pdf'), { name: 'a.pdf', size: 1_000, type: 'application/pdf' }),
    ).resolves.toBeDefined();
  });

  it("counts a multi field's files against its maxCount (409), and leaves other fields alone", async () => {
    const { admission, fileRecords } = setup();
    const photos = await admission.admit(target('photos'));
    await expect(admission.assertRoomFor(photos.field, photos.slot, 2)).resolves.toBeUndefined();
    fileRecords.add(photos.slot, 0);
    await expect(admission.assertRoomFor(photos.field, photos.slot, 2)).rejects.toEqual(
      failsWith(FilesErrorCode.FieldFull),
    );
    const any = await admission.admit(target('any'));
    await expect(admission.assertRoomFor(any.field, any.slot, 1_000)).resolves.toBeUndefined();
  });
});
