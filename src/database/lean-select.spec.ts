import {
  AfterLoad,
  Column,
  CreateDateColumn,
  DataSource,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { LeanSelect, parseSqliteDatetime } from './lean-select.js';
import { bigintNumber } from './transformers.js';

@Entity({ name: 'gizmos' })
class Gizmo {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'display_name', type: 'varchar', length: 50 }) displayName!: string;
  @Column({ type: 'text', nullable: true }) note!: string | null;
  @Column({ type: 'integer', nullable: true }) count!: number | null;
  @Column({ type: 'bigint', transformer: bigintNumber }) size!: number;
  @Column({ type: 'boolean', default: false }) active!: boolean;
  @Column({ type: 'datetime', nullable: true }) seenAt!: Date | null;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
  /** Not a column: a lean read leaves it alone, as TypeORM does. */
  extra?: string;
}

@Entity({ name: 'watched' })
class Watched {
  @PrimaryGeneratedColumn() id!: number;
  loaded = false;
  @AfterLoad() markLoaded(): void {
    this.loaded = true;
  }
}

describe('LeanSelect', () => {
  let dataSource: DataSource;
  let lean: LeanSelect<Gizmo>;

  beforeAll(async () => {
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Gizmo, Watched],
      synchronize: true,
    });
    await dataSource.initialize();
    const repository = dataSource.getRepository(Gizmo);
    await repository.save([
      repository.create({ displayName: 'a', note: null, count: 3, size: 2 ** 40, active: true, seenAt: new Date(1) }),
      repository.create({ displayName: 'b', note: 'n', count: null, size: 0, seenAt: null }),
    ]);
    const second = await repository.findOneByOrFail({ displayName: 'b' });
    await repository.save(Object.assign(second, { note: 'changed' }));
    // A datetime written by SQLite itself: no milliseconds.
    await dataSource.query(`UPDATE gizmos SET created_at = datetime('now') WHERE id = 1`);
    lean = new LeanSelect(dataSource, Gizmo);
  });

  afterAll(() => dataSource.destroy());

  it('reads entities exactly as TypeORM hydrates them: values, class and property order', async () => {
    const expected = await dataSource.getRepository(Gizmo).find({ order: { id: 'ASC' } });
    const actual = await lean.entities(`${lean.selectFrom} ORDER BY ${lean.column('id')}`, []);
    expect(actual).toEqual(expected);
    expect(actual.map((entity) => Object.keys(entity))).toEqual(expected.map((entity) => Object.keys(entity)));
    expect(actual.every((entity) => entity instanceof Gizmo)).toBe(true);
    expect(actual[0].createdAt).toBeInstanceOf(Date);
    expect(typeof actual[0].size).toBe('number');
  });

  it('reads plain rows with the same values, keyed by property', async () => {
    const expected = await dataSource.getRepository(Gizmo).find({ order: { id: 'ASC' } });
    const sql = `${lean.selectFrom} WHERE ${lean.column('displayName')} IN (${lean.parameter(0)}, ${lean.parameter(1)})`;
    const rows = await lean.plain(`${sql} ORDER BY ${lean.column('id')}`, ['a', 'b']);
    expect(rows.map((row) => ({ ...row }))).toEqual(expected.map((entity) => ({ ...entity })));
    expect(rows[0]).not.toBeInstanceOf(Gizmo);
  });

  it('tells whether two raw rows hold the same values, column by column', async () => {
    const read = async () => {
      const [row] = await lean.raw(`${lean.selectFrom} WHERE ${lean.column('id')} = ${lean.parameter(0)}`, [1]);
      return row;
    };
    const row = await read();
    expect(lean.sameRow(row, await read())).toBe(true);
    for (const [property, value] of Object.entries({ displayName: 'a ', note: '', count: 4, seenAt: null })) {
      expect(lean.sameRow(row, { ...row, [property]: value })).toBe(false);
    }
    // Not a column: not compared.
    expect(lean.sameRow(row, { ...row, extra: 'x' })).toBe(true);
    // A driver's Date, Buffer or parsed JSON (PostgreSQL's timestamp, bytea, jsonb) by its value.
    const pairs: Array<[unknown, unknown, boolean]> = [
      [new Date(1), new Date(1), true],
      [new Date(1), new Date(2), false],
      [new Date(1), 1, false],
      [Buffer.from('x'), Buffer.from('x'), true],
      [Buffer.from('x'), Buffer.from('y'), false],
      [{ a: [1] }, { a: [1] }, true],
      [{ a: [1] }, { a: [2] }, false],
      [{ a: 1 }, null, false],
    ];
    for (const [a, b, same] of pairs) expect(lean.sameRow({ ...row, note: a }, { ...row, note: b })).toBe(same);
    // It reads the raw row; hydrate then converts it in place.
    expect(lean.hydrate(row)).toEqual(await dataSource.getRepository(Gizmo).findOneByOrFail({ id: 1 }));
  });

  it("reads columns under prefixed names beside another statement's columns, and copies its own alone", async () => {
    const prefixed = new LeanSelect(dataSource, Gizmo, 'g:');
    expect(prefixed.selectList[0]).toBe('"id" AS "g:id"');
    const sql = `SELECT ${prefixed.columnList}, 7 AS "id", 'x' AS "other" FROM ${prefixed.table} ORDER BY 1`;
    const rows = await prefixed.raw(sql, []);
    expect(prefixed.toEntities(rows)).toEqual(await dataSource.getRepository(Gizmo).find({ order: { id: 'ASC' } }));
    const copy = prefixed.copyRow(rows[0]);
    expect(Object.keys(copy)).toEqual(prefixed.selectList.map((column) => /AS "(.*)"$/.exec(column)![1]));
    expect(prefixed.sameRow(copy, rows[0])).toBe(true);
    expect(prefixed.sameRow(copy, { ...rows[0], 'g:note': 'other' })).toBe(false);
  });

  it('escapes the table and columns and uses the driver placeholders', () => {
    expect(lean.table).toBe('"gizmos"');
    expect(lean.column('displayName')).toBe('"display_name"');
    expect(lean.parameter(0)).toBe('?');
    expect(() => lean.column('extra')).toThrow(/no column extra/);
  });

  it('writes a membership condition after the parameters already bound, and binds its values', async () => {
    const parameters: unknown[] = ['a'];
    const condition = `${lean.column('displayName')} = ? AND ${lean.oneOf(lean.column('id'), [1, 2, 3], parameters)}`;
    expect(condition).toBe('"display_name" = ? AND "id" IN (?, ?, ?)');
    expect(parameters).toEqual(['a', 1, 2, 3]);
    const rows = await lean.plain(`${lean.selectFrom} WHERE ${condition}`, parameters);
    expect(rows.map((row) => row.id)).toEqual([1]);
  });

  it('refuses entities with afterLoad listeners, which it would skip', () => {
    expect(() => new LeanSelect(dataSource, Watched)).toThrow(/afterLoad/);
  });
});

describe('parseSqliteDatetime', () => {
  /** What TypeORM's SQLite driver makes of a datetime string: a 'T' and a 'Z' added, then `new Date()`. */
  const byDriver = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

  it.each([
    '2026-11-23 13:35:08',
    '2026-11-23 13:35:08.071',
    '2026-11-23 13:35:08.000',
    '1970-01-01 00:00:00',
    '0100-01-01 00:00:00.001',
    '9999-12-31 23:59:59.999',
    '2024-02-29 12:00:00',
    '2026-02-30 12:00:00', // rolls over to March 2, as the driver's Date does
    '2026-11-31 00:00:00.5', // not a SQLite datetime: left to the driver
  ])('reads %s as the driver does', (text) => {
    const parsed = parseSqliteDatetime(text);
    if (text.length === 19 || text.length === 23) expect(parsed?.getTime()).toBe(byDriver(text).getTime());
    else expect(parsed).toBeUndefined();
  });

  it.each([
    '2026-11-23T13:35:08',
    '2026-11-23 13:35:08Z',
    '2026-11-23 13:35:08,123',
    '2026-13-01 00:00:00',
    '2026-11-23 24:00:00',
    '2026-11-23 13:60:00',
    '2026-11-23 13:35:60',
    '2026-1x-23 13:35:08',
    '0099-01-01 00:00:00',
    '',
  ])('leaves %j to the driver', (text) => {
    expect(parseSqliteDatetime(text)).toBeUndefined();
  });
});
