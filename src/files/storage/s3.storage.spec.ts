import { jest } from '@jest/globals';
import { S3Client } from '@aws-sdk/client-s3';
import { S3Storage } from './s3.storage.js';

describe('S3Storage', () => {
  afterEach(() => jest.restoreAllMocks());

  it('destroys its SDK client when closed, which ends the sockets it keeps alive', async () => {
    const destroy = jest.spyOn(S3Client.prototype, 'destroy');
    const storage = new S3Storage({ bucket: 'files', region: 'us-east-1', forcePathStyle: true });
    await storage.close();
    expect(destroy).toHaveBeenCalledTimes(1);
  });
});
