import { jest } from '@jest/globals';
import { Column, DataSource, Entity, PrimaryGeneratedColumn, type Repository } from 'typeorm';
import { EntityReader, escapeLike, findPage, sortValuesOf, type ListSpec } from './list-page.js';

@Entity({ name: 'things' })
class Thing {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 50 }) name!: string;
  @Column({ type: 'varchar', length: 50 }) code!: string;
  @Column({ type: 'integer' }) rank!: number;
  @Column({ type: 'varchar', length: 50, nullable: true }) note!: string | null;
  @Column({ type: 'datetime', default: () => 'CURRENT_TIMESTAMP' }) at!: Date;
}

const SPEC: ListSpec<Thing> = {
  search: ['name', 'code'],
  sorts: { id: 'id', name: 'name', rank: 'rank', note: 'note' },
  defaultSort: 'id',
};
const NAMES = ['banana', 'Apple', 'cherry', '100% juice', 'snake_case', 'back\\slash', 'apple pie'];

describe('findPage', () => {
  let dataSource: DataSource;
  let things: Repository<Thing>;
  const page = (query: Partial<Parameters<typeof findPage>[1]>) =>
    findPage(things, { limit: 20, offset: 0, ...query }, SPEC);
  const names = async (query: Partial<Parameters<typeof findPage>[1]>) =>
    (await page(query)).items.map((thing) => thing.name);

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Thing] }).initialize();
    await dataSource.synchronize();
    things = dataSource.getRepository(Thing);
    // Two share a rank, so the order among them is the id's.
    await things.save(
      NAMES.map((name, index) => ({ name, code: `C${index}`, rank: index % 3, note: index % 2 ? `n${index}` : null })),
    );
  });
  afterAll(() => dataSource.destroy());

  it('pages in id order by default, with the total', async () => {
    expect(await page({ limit: 3, offset: 3 })).toMatchObject({ total: 7, limit: 3, offset: 3 });
    expect(await names({ limit: 3, offset: 3 })).toEqual(['100% juice', 'snake_case', 'back\\slash']);
  });

  it('finds a case-insensitive substring of any searched property, wildcards taken literally', async () => {
    expect(await names({ q: 'APPLE' })).toEqual(['Apple', 'apple pie']);
    expect(await names({ q: 'c5' })).toEqual(['back\\slash']);
    expect(await names({ q: '%' })).toEqual(['100% juice']);
    expect(await names({ q: '_' })).toEqual(['snake_case']);
    expect(await names({ q: '\\' })).toEqual(['back\\slash']);
    expect(await page({ q: 'zzz' })).toEqual({ items: [], total: 0, limit: 20, offset: 0 });
    expect(await names({ q: '   ' })).toHaveLength(7);
  });

  it('puts empty values last either way', async () => {
    const notes = async (sort: string) => (await page({ sort })).items.map((thing) => thing.note);
    expect(await notes('note')).toEqual(['n1', 'n3', 'n5', null, null, null, null]);
    expect(await notes('-note')).toEqual(['n5', 'n3', 'n1', null, null, null, null]);
  });

  it('orders text in any case, either way, ties by id in the same direction', async () => {
    expect(await names({ sort: 'name' })).toEqual([
      '100% juice',
      'Apple',
      'apple pie',
      'back\\slash',
      'banana',
      'cherry',
      'snake_case',
    ]);
    expect((await page({ sort: '-rank' })).items.map((thing) => [thing.rank, thing.id])).toEqual([
      [2, 6],
      [2, 3],
      [1, 5],
      [1, 2],
      [0, 7],
      [0, 4],
      [0, 1],
    ]);
  });

  it('counts only when a page is full or past the end', async () => {
    const count = jest.spyOn(dataSource.driver.createQueryRunner('slave').constructor.prototype, 'query');
    count.mockClear();
    expect((await page({ limit: 5, offset: 5 })).total).toBe(7);
    const shortPageQueries = count.mock.calls.length;
    count.mockClear();
    expect((await page({ limit: 5, offset: 0 })).total).toBe(7);
    expect(count.mock.calls.length).toBe(shortPageQueries + 1);
    expect(await page({ limit: 5, offset: 40 })).toEqual({ items: [], total: 7, limit: 5, offset: 40 });
    count.mockRestore();
  });

  it('names every sort value, each way', () => {
    expect(sortValuesOf(SPEC as ListSpec<never>)).toEqual([
      'id',
      '-id',
      'name',
      '-name',
      'rank',
      '-rank',
      'note',
      '-note',
    ]);
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
  });
});

describe('EntityReader', () => {
  let dataSource: DataSource;
  let things: Repository<Thing>;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Thing] }).initialize();
    await dataSource.synchronize();
    things = dataSource.getRepository(Thing);
    await things.save(
      NAMES.map((name, index) => ({ name, code: `C${index}`, rank: index, note: index % 2 ? 'n' : null })),
    );
  });
  afterAll(() => dataSource.destroy());

  it('reads the entities TypeORM reads, building each shape of statement once', async () => {
    const build = jest.fn(([rank]: unknown[]) =>
      things.createQueryBuilder(EntityReader.ALIAS).where('row.rank >= :rank', { rank }).orderBy('row.id'),
    );
    const reader = EntityReader.of(things);
    for (const rank of [2, 5]) {
      const read = await reader.many('from rank', [rank], build);
      const expected = await things
        .createQueryBuilder('row')
        .where('row.rank >= :rank', { rank })
        .orderBy('row.id')
        .getMany();
      expect(read).toEqual(expected);
      expect(read.map((thing) => Object.keys(thing))).toEqual(expected.map((thing) => Object.keys(thing)));
      expect(read.every((thing) => thing instanceof Thing && thing.at instanceof Date)).toBe(true);
      expect(await reader.count('from rank', [rank], build)).toBe(expected.length);
    }
    // Once for the rows, once for the count; another reader of the same entity reuses them.
    expect(build).toHaveBeenCalledTimes(2);
    await EntityReader.of(things).many('from rank', [9], build);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("runs on the manager of the repository it is given (a transaction's), not on the first one's", async () => {
    // A DataSource of its own: its entity metadata is new, so the first reader of Thing here is a transaction's.
    const own = await new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Thing] }).initialize();
    try {
      await own.synchronize();
      const repository = own.getRepository(Thing);
      await repository.save({ name: 'kept', code: 'K', rank: 0, note: null });
      const build = () => repository.createQueryBuilder(EntityReader.ALIAS).orderBy('row.id');
      const inside = await own.transaction((manager) =>
        EntityReader.of(manager.getRepository(Thing)).many('all', [], build),
      );
      expect(inside.map((thing) => thing.name)).toEqual(['kept']);
      // Outside the transaction, the read goes through the DataSource's manager (the transaction's is released).
      const query = jest.spyOn(own.manager, 'query');
      await expect(EntityReader.of(repository).many('all', [], build)).resolves.toHaveLength(1);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      await own.destroy();
    }
  });
});
