import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FileFieldsModule } from './file-fields.module.js';
import { FileRecord } from './records/file-record.entity.js';
import { FakeFileStorage } from './testing/file-fixtures.js';

describe('FileFieldsModule', () => {
  it('closes the storage when the application shuts down', async () => {
    const storage = new FakeFileStorage();
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: [FileRecord] }),
        FileFieldsModule.forRoot({ storage, sweepOrphansInBackground: false }),
      ],
    }).compile();
    const app = await moduleRef.init();
    expect(storage.closed).toBe(false);
    await app.close();
    expect(storage.closed).toBe(true);
  });
});
