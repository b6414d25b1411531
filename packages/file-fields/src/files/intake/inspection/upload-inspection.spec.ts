import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FilesErrorCode, type FilesError } from '../../../errors/files.errors.js';
import type { FileFieldDefinition } from '../../fields/file-field.decorator.js';
import { resolveFileFieldsOptions } from '../../fields/file-fields.options.js';
import type { ImageProbe } from '../../images/probe/image-probe.js';
import { FakeFileStorage } from '../../testing/file-fixtures.js';
import { SNIFF_BYTES } from './byte-inspector.js';
import { acceptedType, headInspector, IMAGE_HEAD_BYTES, UploadInspection } from './upload-inspection.js';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');
/** A PNG's signature and header, followed by more bytes than an image head keeps. */
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(IMAGE_HEAD_BYTES + 10_000, 7),
]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const failsWith = (code: FilesErrorCode) => expect.objectContaining({ code }) as unknown as FilesError;

describe('acceptedType', () => {
  it('answers the type sniffed from the first bytes, whatever the name says', async () => {
    expect(await acceptedType(PDF, ['application/pdf'], 'a.png')).toBe('application/pdf');
  });

  it('refuses a type the field does not accept with 415, naming the file', async () => {
    await expect(acceptedType(PDF, ['image/*'], 'a.pdf')).rejects.toThrow(
      /"a.pdf" is application\/pdf; this field accepts image\/\*/,
    );
  });
});

describe('headInspector', () => {
  const inspect = async (bytes: Buffer) => {
    const inspector = headInspector();
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    await pipeline(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), inspector, sink);
    return inspector;
  };

  it('keeps an image header of IMAGE_HEAD_BYTES, only a sniff of anything else, and hashes it all', async () => {
    const image = await inspect(PNG);
    expect(image.head()).toHaveLength(IMAGE_HEAD_BYTES);
    expect(image.checksum()).toBe(sha256(PNG));
    const other = await inspect(Buffer.concat([PDF, Buffer.alloc(IMAGE_HEAD_BYTES, 1)]));
    expect(other.head()).toHaveLength(SNIFF_BYTES);
  });
});

describe('UploadInspection', () => {
  const setup = () => {
    const storage = new FakeFileStorage();
    const options = resolveFileFieldsOptions({ storage });
    const probed: Array<{ head: number; size: number; mimeType: string }> = [];
    const images = {
      inspect: (part: { head: Buffer; size: number; mimeType: string }) => {
        probed.push({ head: part.head.length, size: part.size, mimeType: part.mimeType });
        return Promise.resolve(part.mimeType === 'image/png' ? { width: 1, height: 1 } : null);
      },
    } as unknown as ImageProbe;
    return { storage, probed, inspection: new UploadInspection(options, storage, images) };
  };
  const field = (accept?: string[]): FileFieldDefinition => ({ name: 'f', multi: false, accept });

  it('judges an object stored without the service as an upload through it, with its SHA-256', async () => {
    const { storage, inspection } = setup();
    storage.objects.set('article/7/a', PDF);
    const part = await inspection.storedObject('article/7/a', PDF.length, field(['application/pdf']), 'a.pdf');
    expect(part).toEqual({
      key: 'article/7/a',
      size: PDF.length,
      mimeType: 'application/pdf',
      image: null,
      checksumSha256: sha256(PDF),
    });
  });

  it("reads an image's header, not only a sniff, for the probe", async () => {
    const { storage, inspection, probed } = setup();
    storage.objects.set('article/7/b', PNG);
    const part = await inspection.storedObject('article/7/b', PNG.length, field(['image/*']), 'b.png');
    expect(part.image).toEqual({ width: 1, height: 1 });
    expect(probed).toEqual([{ head: IMAGE_HEAD_BYTES, size: PNG.length, mimeType: 'image/png' }]);
  });

  it('refuses a stored object of a type the field does not take before reading it whole', async () => {
    const { storage, inspection, probed } = setup();
    storage.objects.set('article/7/c', PNG);
    await expect(
      inspection.storedObject('article/7/c', PNG.length, field(['application/pdf']), 'c.png'),
    ).rejects.toEqual(failsWith(FilesErrorCode.UnsupportedMediaType));
    expect(probed).toEqual([]);
  });
});
