import { sniffMimeType } from './sniff-mime-type.js';

const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('sniffMimeType', () => {
  it('recognises binary formats by their signature', async () => {
    await expect(sniffMimeType(PNG_HEAD)).resolves.toBe('image/png');
    await expect(sniffMimeType(Buffer.from('%PDF-1.7\n'))).resolves.toBe('application/pdf');
  });

  it('calls UTF-8 text text/plain, even when the sample cuts a character in half', async () => {
    await expect(sniffMimeType(Buffer.from('hello, wörld\n'))).resolves.toBe('text/plain');
    const cut = Buffer.from('ab€').subarray(0, 4);
    await expect(sniffMimeType(cut)).resolves.toBe('text/plain');
  });

  it('names HTML, SVG and XML text so that fields can refuse them', async () => {
    await expect(sniffMimeType(Buffer.from('\n  <!DOCTYPE html><html><script>alert(1)</script>'))).resolves.toBe(
      'text/html',
    );
    await expect(
      sniffMimeType(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')),
    ).resolves.toBe('image/svg+xml');
    await expect(sniffMimeType(Buffer.from('<svg onload="alert(1)">'))).resolves.toBe('image/svg+xml');
    await expect(sniffMimeType(Buffer.from('<?xml version="1.0"?><note/>'))).resolves.toBe('application/xml');
  });

  it('calls anything else application/octet-stream', async () => {
    await expect(sniffMimeType(Buffer.alloc(64, 7))).resolves.toBe('application/octet-stream');
    await expect(sniffMimeType(Buffer.from([0x00, 0x01, 0x02, 0x80, 0x41]))).resolves.toBe('application/octet-stream');
    await expect(sniffMimeType(Buffer.alloc(0))).resolves.toBe('application/octet-stream');
  });
});
