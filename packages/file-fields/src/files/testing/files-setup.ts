import type { UnitOfWork } from '../../database/unit-of-work.js';
import { AttachmentOwners } from '../fields/attachment-owners.js';
import { FieldAdmission } from '../intake/admission/field-admission.js';
import { resolveFileFieldsOptions } from '../fields/file-fields.options.js';
import type { FieldSlot } from '../records/file-records.repository.js';
import {
  FakeFileEventPublisher,
  FakeFileFieldRegistry,
  FakeFileStorage,
  FakeMultipartReceiver,
} from './file-fixtures.js';
import {
  asReal,
  FakeAttachmentOwnersRepository,
  FakeFileRecordsRepository,
  FakeUnitOfWork,
} from './in-memory-repositories.js';

/** Product 1 exists: a single `cover`, a `gallery` of at most three, and an unbounded `pages`. */
export const PRODUCT_ID = 1;
export const cover: FieldSlot = { attachmentType: 'product', attachmentId: PRODUCT_ID, field: 'cover' };
export const gallery: FieldSlot = { attachmentType: 'product', attachmentId: PRODUCT_ID, field: 'gallery' };
export const pages: FieldSlot = { attachmentType: 'product', attachmentId: PRODUCT_ID, field: 'pages' };

/** Every fake a files service is built from, with the real AttachmentOwners logic on top of them. */
export function filesFakes() {
  const storage = new FakeFileStorage();
  const fileRecords = new FakeFileRecordsRepository();
  const ownerRows = new FakeAttachmentOwnersRepository();
  ownerRows.add('product', PRODUCT_ID);
  const registry = new FakeFileFieldRegistry({
    product: [
      { name: 'cover', multi: false },
      { name: 'gallery', multi: true, maxCount: 3 },
      { name: 'pages', multi: true },
    ],
  });
  const options = resolveFileFieldsOptions({ storage });
  const owners = new AttachmentOwners(asReal(registry), asReal(ownerRows));
  return {
    options,
    storage,
    fileRecords,
    ownerRows,
    registry,
    owners,
    admission: new FieldAdmission(options, owners, asReal(fileRecords)),
    receiver: new FakeMultipartReceiver(storage),
    events: new FakeFileEventPublisher(),
    unitOfWork: asReal<UnitOfWork>(new FakeUnitOfWork()),
  };
}
