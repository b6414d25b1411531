import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import request from 'supertest';
import type { Response } from 'supertest';
import { createIntegration, integrationToken } from './support/admin-api.js';
import { directUploadContext, s3ClientOf } from './support/direct-uploads.js';
import { startFauxqsServer } from './support/fauxqs-server.js';
import { expectProblem } from './support/fixtures.js';

describe('Limits on unfinished direct-to-S3 uploads', () => {
  const c = directUploadContext(() => startFauxqsServer('direct-limits'));
  const newProduct = async () =>
    (await c.t.http.post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
  const newPrincipal = async () => {
    const integration = await createIntegration(c.t, ['product:write', 'product:read']);
    return `Bearer ${await integrationToken(c.t.url, integration)}`;
  };
  const start = (bearer: string, product: number, field = 'gallery', size = 3000) =>
    request(c.t.url)
      .post(`/files/product/${product}/${field}/direct-uploads`)
      .set('Authorization', bearer)
      .send({ filename: 'f.pdf', content_type: field === 'cover' ? 'image/png' : 'application/pdf', size });
  const multipartUploads = async () => {
    const client = s3ClientOf(c.s3);
    try {
      const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: 'direct-limits' }));
      return listed.Uploads?.length ?? 0;
    } finally {
      client.destroy();
    }
  };
  const expectTooMany = (res: Response) => {
    expectProblem(res, 429, 'too-many-open-uploads');
    const retryAfter = Number(res.headers['retry-after']);
    // The soonest upload expires within DIRECT_UPLOAD_TTL (5 minutes in this suite).
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(300);
  };

  it('refuses the 25th start of one principal with 429 and Retry-After, before S3 is asked; a cancel frees one', async () => {
    const bearer = await newPrincipal();
    const product = await newProduct();
    const ids: string[] = [];
    for (let n = 0; n < 24; n += 1) ids.push((await start(bearer, product).expect(201)).body.id as string);
    const multipart = await multipartUploads();
    expectTooMany(await start(bearer, product));
    expect(await multipartUploads()).toBe(multipart);
    await request(c.t.url).delete(`/files/direct-uploads/${ids[0]}`).set('Authorization', bearer).expect(204);
    await start(bearer, product).expect(201);
    expectTooMany(await start(bearer, await newProduct()));
  });

  // How declared sizes count against the principal's limit is open-upload-limits.spec.ts; that a start claims its
  // size, direct-uploads.service.spec.ts.
  it("counts the starts under way into a field's room: one for a single field, maxCount − files − open in a multi", async () => {
    const product = await newProduct();
    const [one, two] = [await newPrincipal(), await newPrincipal()];
    await start(one, product, 'cover', 1000).expect(201);
    expectProblem(await start(two, product, 'cover', 1000), 409, 'field-full');
    for (let n = 0; n < 30; n += 1) await start(n % 2 ? one : two, product).expect(201);
    expectProblem(await start(two, product), 409, 'field-full');
  });

  it('admits exactly 24 of 30 concurrent starts of one principal', async () => {
    const bearer = await newPrincipal();
    const product = await newProduct();
    const answers = await Promise.all(Array.from({ length: 30 }, () => start(bearer, product)));
    expect(answers.map((res) => res.status).sort()).toEqual([
      ...Array<number>(24).fill(201),
      ...Array<number>(6).fill(429),
    ]);
  });
});
