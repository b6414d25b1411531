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
  });

  it.each([
    ['HTML without a doctype', '<p>hi</p><script>alert(1)</script>'],
    ['markup after text', 'Dear reader,\n\n<img src=x onerror=alert(1)>'],
    ['a closing tag', 'text </textarea> more'],
    ['a comment', 'text <!-- hidden -->'],
    ['a processing instruction', 'text <?php echo 1 ?>'],
    ['XML', '<?xml version="1.0"?><note/>'],
    [
      'XHTML behind an XML declaration',
      '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><script>x</script>',
    ],
    ['XHTML behind a DOCTYPE', '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"><html>'],
  ])('calls %s text/html', async (_name, text) => {
    await expect(sniffMimeType(Buffer.from(text))).resolves.toBe('text/html');
  });

  it.each([
    ['an SVG element without a namespace', '<svg/onload=alert(1)>'],
    ['an SVG element after text', 'see this: <SVG onload="alert(1)">'],
    ['a prefixed SVG element', '<s:svg xmlns:s="http://www.w3.org/2000/svg"/>'],
    ['an SVG behind a DOCTYPE with an internal subset', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]><svg/>'],
  ])('calls %s image/svg+xml', async (_name, text) => {
    await expect(sniffMimeType(Buffer.from(text))).resolves.toBe('image/svg+xml');
  });

  it.each(['a < b', 'x<3 and y<=2', '1 <2', 'if (a<= b) return', '<<>>', 'price < 10 €'])(
    'keeps %p text/plain',
    async (text) => {
      await expect(sniffMimeType(Buffer.from(text))).resolves.toBe('text/plain');
    },
  );

  it('leaves XML it cannot read as text (UTF-16) application/xml, which is refused by default', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0"?><svg/>', 'utf16le')]);
    await expect(sniffMimeType(utf16)).resolves.toBe('application/xml');
  });

  it('calls anything else application/octet-stream', async () => {
    await expect(sniffMimeType(Buffer.alloc(64, 7))).resolves.toBe('application/octet-stream');
    await expect(sniffMimeType(Buffer.from([0x00, 0x01, 0x02, 0x80, 0x41]))).resolves.toBe('application/octet-stream');
    await expect(sniffMimeType(Buffer.alloc(0))).resolves.toBe('application/octet-stream');
  });
});
