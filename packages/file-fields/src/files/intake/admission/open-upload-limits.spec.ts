import type { EntityManager } from 'typeorm';
import { FakeClock } from '../../../common/testing/fakes.js';
import { AttachmentOwners } from '../../fields/attachment-owners.js';
import { resolveFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FakeFileFieldRegistry, FakeFileStorage } from '../../testing/file-fixtures.js';
import {
  asReal,
  FakeAttachmentOwnersRepository,
  FakeFileRecordsRepository,
  FakeUnitOfWork,
} from '../../testing/in-memory-repositories.js';
import type { OpenUpload, OpenUploadsOf, PendingUploadKind } from '../pending/pending-upload-kind.js';
import { UploadAdmission, type UploadClaim } from './open-upload-limits.js';

const MAX_FILE_SIZE = 52_428_800;
const MINUTE = 60_000;

/** The open uploads of one kind, as its table would answer for them. */
class FakeOpenUploads implements PendingUploadKind {
  readonly name = 'resumable';
  readonly uploads: OpenUpload[] = [];

  open = (_manager: EntityManager, of: OpenUploadsOf, nowMs: number) =>
    Promise.resolve(
      this.uploads.filter(
        (upload) =>
          upload.expiresAt > nowMs &&
          ('subject' in of
            ? upload.subject === of.subject
            : upload.attachmentType === of.attachmentType &&
              upload.attachmentId === of.attachmentId &&
              upload.field === of.field),
      ),
    );
  expired = () => Promise.resolve([]);
  dropBytes = () => Promise.resolve();
  deleteRow = () => Promise.resolve();
}

/** The limits at their defaults: 24 open uploads, declaring 20 × MAX_FILE_SIZE together. */
describe('UploadAdmission', () => {
  const setup = () => {
    const clock = new FakeClock();
    const options = resolveFileFieldsOptions({ storage: new FakeFileStorage() });
    const registry = new FakeFileFieldRegistry({
      article: [
        { name: 'attachments', multi: true, maxCount: 10 },
        { name: 'pdf', multi: false, maxSize: 1_000 },
      ],
    });
    const ownerRows = new FakeAttachmentOwnersRepository();
    for (let id = 1; id <= 3; id += 1) ownerRows.add('article', id);
    const owners = new AttachmentOwners(asReal(registry), asReal(ownerRows));
    const kind = new FakeOpenUploads();
    const admission = new UploadAdmission(
      options,
      [kind],
      {} as EntityManager,
      asReal(new FakeUnitOfWork()),
      owners,
      asReal(new FakeFileRecordsRepository()),
      clock,
    );
    const claim = (subject: string, bytes: number | null, attachmentId = 3, field = 'attachments'): UploadClaim => ({
      resolved: owners.resolveField('article', attachmentId, field),
      subject,
      bytes,
    });
    /** An open upload of `subject`'s into `field` of article `attachmentId`, expiring in `expiresInMs`. */
    const holding = (
      subject: string,
      bytes: number | null,
      attachmentId: number,
      field = 'attachments',
      expiresInMs = 10 * MINUTE,
    ) =>
      kind.uploads.push({
        attachmentType: 'article',
        attachmentId,
        field,
        subject,
        bytes,
        expiresAt: clock.nowMs() + expiresInMs,
      });
    const admit = (of: UploadClaim) => admission.admit(of, () => Promise.resolve('opened'));
    return { claim, holding, admit };
  };

  it('refuses the 25th open upload of one principal with 429 and the seconds until its soonest expires', async () => {
    const { claim, holding, admit } = setup();
    for (let n = 0; n < 24; n += 1)
      holding('integration:1', 10, 1 + Math.floor(n / 10), 'attachments', (n + 5) * MINUTE);
    await expect(admit(claim('integration:1', 10))).rejects.toMatchObject({
      status: 429,
      code: 'too-many-open-uploads',
      message: expect.stringMatching(/24 unfinished uploads/) as unknown,
      headers: { 'Retry-After': String(5 * 60) },
    });
    // Another principal is not held back by this one's uploads.
    await expect(admit(claim('integration:2', 10))).resolves.toBe('opened');
  });

  it('refuses an upload whose declared bytes would pass 20 × MAX_FILE_SIZE, a length not declared yet counting as the field maximum', async () => {
    const { claim, holding, admit } = setup();
    for (let n = 0; n < 19; n += 1) holding('user:1', MAX_FILE_SIZE, 1 + Math.floor(n / 10));
    // 19 × MAX_FILE_SIZE declared: one more of at most MAX_FILE_SIZE fits, not two.
    await expect(admit(claim('user:1', null))).resolves.toBe('opened');
    holding('user:1', null, 3);
    await expect(admit(claim('user:1', 1))).rejects.toMatchObject({
      status: 429,
      code: 'too-many-open-uploads',
      message: expect.stringMatching(/bytes/) as unknown,
    });
  });

  it("counts an upload of a length not declared yet as its own field's maximum", async () => {
    const { claim, holding, admit } = setup();
    for (let n = 0; n < 19; n += 1) holding('user:1', MAX_FILE_SIZE, 1 + Math.floor(n / 10));
    holding('user:1', null, 3, 'pdf');
    await expect(admit(claim('user:1', MAX_FILE_SIZE - 1_000))).resolves.toBe('opened');
    await expect(admit(claim('user:1', MAX_FILE_SIZE - 999))).rejects.toMatchObject({ code: 'too-many-open-uploads' });
  });
});
