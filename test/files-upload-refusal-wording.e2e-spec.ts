import { expectProblem, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MIB = 1024 * 1024;

/** A PNG that the size limit refuses: its signature, then padding to `bytes`. */
const bigPng = (bytes: number) => Buffer.concat([PNG, Buffer.alloc(bytes - PNG.length)]);

/*
 * A refused upload says, in words a person reads, what was wrong with which file: the file's name, the field's limit
 * in MiB as the administration UI writes sizes, the types the field accepts.
 */
describe('Upload refusals in words', () => {
  let t: TestApp;
  let product: number;

  beforeAll(async () => {
    t = await startTestApp({ MAX_FILE_SIZE: String(1.5 * MIB) });
    product = ((await t.http.post('/products').send({ name: 'Lamp' }).expect(201)).body as { id: number }).id;
  });
  afterAll(async () => t.close({ destroy: true }));

  it('413 names the file and the limit in MiB', async () => {
    const res = await t.http.post(`/files/product/${product}/cover`).attach('file', bigPng(2 * MIB), 'big photo.png');
    const body = expectProblem(res, 413, 'file-too-large');
    expect(body.detail).toBe(`"big photo.png" is larger than this field's maximum of 1.5 MiB.`);
  });

  it('413 names the file that went over, not the one before it', async () => {
    const res = await t.http
      .post(`/files/product/${product}/gallery`)
      .attach('file', PNG, 'small.png')
      .attach('file', bigPng(2 * MIB), 'second.png');
    expect(expectProblem(res, 413, 'file-too-large').detail).toMatch(/^"second\.png" is larger/);
  });

  it('415 names the file, its type, and the types the field accepts', async () => {
    const res = await t.http
      .post(`/files/product/${product}/gallery`)
      .attach('file', Buffer.from('just some notes\n'), { filename: 'notes.txt', contentType: 'image/png' });
    const body = expectProblem(res, 415, 'unsupported-media-type');
    expect(body.detail).toBe(`"notes.txt" is text/plain; this field accepts image/*, application/pdf.`);
  });

  it('415 in a field that takes any type names what it refuses all the same', async () => {
    const article = ((await t.http.post('/articles').send({ title: 'A' }).expect(201)).body as { id: number }).id;
    const res = await t.http
      .post(`/files/article/${article}/attachments`)
      .attach('file', Buffer.from('<!doctype html><html><script>x</script></html>'), 'page.html');
    expect(expectProblem(res, 415, 'unsupported-media-type').detail).toMatch(
      /^"page\.html" is text\/html; this field accepts any type but text\/html, /,
    );
  });

  describe('through tus, in the same words', () => {
    const tus = { 'Tus-Resumable': '1.0.0' };
    const metadata = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;

    it('413 at creation names the file, its declared size and the limit', async () => {
      const res = await t.http
        .post(`/files/product/${product}/cover`)
        .set({ ...tus, 'Upload-Length': String(2 * MIB), 'Upload-Metadata': metadata('video.mp4') });
      expect(expectProblem(res, 413, 'file-too-large').detail).toBe(
        `"video.mp4" (2.0 MiB) is larger than this field's maximum of 1.5 MiB.`,
      );
    });

    it('415 on the first bytes names the file and what the field accepts', async () => {
      const body = Buffer.from('just some notes\n');
      const created = await t.http
        .post(`/files/product/${product}/gallery`)
        .set({ ...tus, 'Upload-Length': String(body.length), 'Upload-Metadata': metadata('notes.txt') })
        .expect(201);
      const res = await t.http
        .patch(new URL(created.headers.location, 'http://x').pathname)
        .set({ ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' })
        .send(body);
      expect(expectProblem(res, 415, 'unsupported-media-type').detail).toBe(
        `"notes.txt" is text/plain; this field accepts image/*, application/pdf.`,
      );
    });
  });
});
