import { resolveFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FilesError } from '../../../errors/files.errors.js';
import { type FileStorage } from '../../../storage/file-storage.js';
import { UploadSlots } from './upload-slots.js';

describe('UploadSlots', () => {
  const slots = () => new UploadSlots(resolveFileFieldsOptions({ storage: {} as FileStorage, uploadsPerPrincipal: 2 }));

  it('refuses the subject its limit+1st upload with 429 and Retry-After, but not another subject', () => {
    const s = slots();
    s.acquire('user:1');
    s.acquire('user:1');
    let refused: unknown;
    try {
      s.acquire('user:1');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(FilesError);
    expect(refused).toMatchObject({ status: 429, code: 'too-many-uploads', headers: { 'Retry-After': '5' } });
    expect(() => s.acquire('integration:2')).not.toThrow();
  });

  it('frees a slot once, however often its release is called', () => {
    const s = slots();
    const release = s.acquire('user:1');
    s.acquire('user:1');
    release();
    release();
    expect(() => s.acquire('user:1')).not.toThrow();
    expect(() => s.acquire('user:1')).toThrow(FilesError);
  });
});
