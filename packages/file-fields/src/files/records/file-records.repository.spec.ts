import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { FileRecord } from './file-record.entity.js';
import { FileRecordsRepository } from './file-records.repository.js';

describe('FileRecordsRepository.findForOwners', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [FileRecord],
      synchronize: true,
    }).initialize();
  });

  afterAll(() => dataSource.destroy());

  it('returns the records of every owner in one query, by entity, field and position', async () => {
    const slots: Array<[type: string, id: number, field: string, position: number]> = [
      ['product', 2, 'gallery', 1],
      ['article', 1, 'attachments', 0],
      ['product', 1, 'gallery', 10],
      ['product', 2, 'cover', 0],
      ['product', 1, 'gallery', 2],
      ['product', 10, 'cover', 0],
      ['product', 2, 'gallery', 0],
    ];
    const rows = slots.map(([attachmentType, attachmentId, field, sortOrder], index) => ({
      id: index + 1,
      storageKey: `${attachmentType}/${attachmentId}/${index}`,
      attachmentType,
      attachmentId,
      field,
      sortOrder,
      originalName: 'a.png',
      mimeType: 'image/png',
      size: 1,
      checksumSha256: 'c',
      width: null,
      height: null,
      variants: null,
    }));
    await dataSource.getRepository(FileRecord).insert(rows);
    const query = jest.spyOn(dataSource.driver, 'createQueryRunner');
    const repository = new FileRecordsRepository(dataSource.manager);

    const found = await repository.findForOwners(
      new Map([
        ['product', [2, 1, 10]],
        ['article', [1]],
      ]),
    );

    expect(query).toHaveBeenCalledTimes(1);
    expect(found[0]).toBeInstanceOf(FileRecord);
    expect(found.map((r) => `${r.attachmentType}:${r.attachmentId}:${r.field}:${r.sortOrder}`)).toEqual([
      'article:1:attachments:0',
      'product:1:gallery:2',
      'product:1:gallery:10',
      'product:2:cover:0',
      'product:2:gallery:0',
      'product:2:gallery:1',
      'product:10:cover:0',
    ]);
    expect(found[0].createdAt).toBeInstanceOf(Date);
    // Records of other owners are left out.
    expect(await repository.findForOwners(new Map([['product', [3]]]))).toEqual([]);
  });
});
