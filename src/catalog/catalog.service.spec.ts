import { jest } from '@jest/globals';
import type { Repository } from 'typeorm';
import type { UnitOfWork } from '../database/unit-of-work.js';
import { CatalogService, type CatalogEntity } from './catalog.service.js';

/** A repository over `count` entities with ids 1..count, recording whether it was asked to count. */
function repositoryOf(count: number) {
  const rows = Array.from({ length: count }, (_, index) => ({ id: index + 1 }));
  const find = jest.fn(({ take, skip }: { take: number; skip: number }) =>
    Promise.resolve(rows.slice(skip, skip + take)),
  );
  const countRows = jest.fn(() => Promise.resolve(rows.length));
  const repository = { find, count: countRows } as unknown as Repository<CatalogEntity>;
  return { service: new CatalogService(repository, {} as UnitOfWork, 'thing'), countRows };
}

describe('CatalogService.list', () => {
  it('counts when the page is full, as a later page may follow', async () => {
    const { service, countRows } = repositoryOf(25);
    expect(await service.list(10, 10)).toMatchObject({ total: 25, limit: 10, offset: 10 });
    expect((await service.list(10, 10)).items.map((item) => item.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(countRows).toHaveBeenCalled();
  });

  it('takes the total of a last page, short of its limit, from its items', async () => {
    const { service, countRows } = repositoryOf(25);
    expect(await service.list(10, 20)).toMatchObject({ total: 25, offset: 20 });
    expect(await service.list(50, 0)).toMatchObject({ total: 25, offset: 0 });
    expect(countRows).not.toHaveBeenCalled();
  });

  it('counts for an empty page past the end, and for an empty list', async () => {
    const { service, countRows } = repositoryOf(25);
    expect(await service.list(10, 40)).toEqual({ items: [], total: 25, limit: 10, offset: 40 });
    expect(countRows).toHaveBeenCalledTimes(1);
    expect(await repositoryOf(0).service.list(10, 0)).toEqual({ items: [], total: 0, limit: 10, offset: 0 });
  });
});
