/**
 * @file-fields/nest/testing: stand-ins for unit specs without a database (a clock to move by hand, a unit of work
 * without transactions), and the internals the package's own end-to-end suites reach.
 */
export { FakeClock, FakeUnitOfWork, asReal, copyRow, type Public } from './common/testing/fakes.js';
export { VariantProduction } from './files/images/variants/variant-production.js';
export { hashUploadId } from './files/intake/pending/upload-id.js';
export { ResumableUpload } from './files/transports/resumable/state/resumable-upload.entity.js';
