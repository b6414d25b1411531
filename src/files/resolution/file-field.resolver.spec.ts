import { jest } from '@jest/globals';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AttachmentType, FileField } from '../file-field.decorator.js';
import { FileFieldRegistry } from '../file-field.registry.js';
import { resolveFileFieldsOptions } from '../file-fields.options.js';
import { FakeClock } from '../../common/testing/fakes.js';
import type { FileRecordDto } from '../file-record.dto.js';
import type { FileRecord } from '../file-record.entity.js';
import type { FileRecordsRepository } from '../file-records.repository.js';
import { FakeFileStorage } from '../testing/file-fixtures.js';
import { FileUrls } from '../urls/file-urls.js';
import type { FileVariants } from '../images/file-variants.service.js';
import { FileFieldResolver } from './file-field.resolver.js';
import { JointFileReads, type JointFileSide } from './joint-file-reads.js';

@Entity()
@AttachmentType('box')
class Box {
  @PrimaryGeneratedColumn() id!: number;
  @Column() label!: string;
  @FileField() lid?: unknown;
  @FileField({ multi: true }) contents?: unknown;
  @FileField({ variants: { small: { width: 10 } } }) photo?: unknown;
}

const box = (id: number) => Object.assign(new Box(), { id, label: `box ${id}` });
const record = (id: number, attachmentId: number, field: string, sortOrder: number): FileRecord => ({
  id,
  storageKey: `box/${attachmentId}/${id}`,
  attachmentId,
  attachmentType: 'box',
  field,
  sortOrder,
  originalName: `${id}.bin`,
  mimeType: 'application/octet-stream',
  size: 1,
  checksumSha256: 'x'.repeat(64),
  width: null,
  height: null,
  variants: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('FileFieldResolver', () => {
  let resolver: FileFieldResolver;
  let rows: FileRecord[];
  let findForOwners: jest.Mock<(owners: Map<string, number[]>) => Promise<FileRecord[]>>;
  let toDto: jest.Mock<(r: FileRecord) => object>;
  let clock: FakeClock;
  let joint: JointFileSide;

  beforeAll(async () => {
    const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Box] });
    await dataSource.initialize();
    await dataSource.destroy();
    const registry = new FileFieldRegistry(dataSource);
    registry.onModuleInit();
    findForOwners = jest.fn((owners: Map<string, number[]>) => {
      const ids = owners.get('box') ?? [];
      return Promise.resolve(rows.filter((r) => ids.includes(r.attachmentId)).map((r) => ({ ...r })));
    });
    // Rows come converted already.
    const sameRow = (a: FileRecord, b: FileRecord) => JSON.stringify(a) === JSON.stringify(b);
    const fileRecords = {
      findForOwners,
      hydrate: (row: FileRecord) => row,
      copyRow: (row: FileRecord) => ({ ...row }),
      sameRow,
      // The owners' query as a joint read's file side builds on it.
      ownerQuery: () => ({
        select: { selectList: ['"id" AS "id"', '"path" AS "storageKey"'], columnList: '"id", "path"', table: '"f"' },
        type: '"attachment_type"',
        id: '"attachment_id"',
      }),
    };
    const storage = new FakeFileStorage();
    clock = new FakeClock(Date.UTC(2026, 10, 23, 10, 20));
    const options = resolveFileFieldsOptions({ storage, publicUrl: 'https://api.example.com' });
    const urls = new FileUrls(options, storage, clock);
    // Records of a field with variants are presented by FileVariants, with their `variants`.
    toDto = jest.fn((r: FileRecord) => ({ id: r.id, variants: r.variants ? { small: null } : {} }));
    const variants = { toDto } as unknown as FileVariants;
    resolver = new FileFieldResolver(registry, fileRecords as unknown as FileRecordsRepository, urls, variants);
    joint = new JointFileReads(registry, fileRecords as unknown as FileRecordsRepository).of(Box)!;
  });

  beforeEach(() => {
    rows = [
      record(1, 1, 'lid', 0),
      record(2, 1, 'contents', 0),
      record(3, 1, 'contents', 1),
      record(4, 2, 'contents', 0),
      record(5, 2, 'photo', 0),
    ];
    findForOwners.mockClear();
    toDto.mockClear();
  });

  const lidOf = async (id: number) => ((await resolver.resolve(box(id))) as unknown as { lid: FileRecordDto }).lid;

  it('shows a record it has shown before as it was, frozen, until its row or the URL window changes', async () => {
    const first = await lidOf(1);
    expect(await lidOf(1)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(findForOwners).toHaveBeenCalledTimes(2);

    rows[0] = { ...rows[0], originalName: 'renamed.bin' };
    const renamed = await lidOf(1);
    expect(renamed).not.toBe(first);
    expect(renamed.original_name).toBe('renamed.bin');

    clock.advance(3_600_000);
    const later = await lidOf(1);
    expect(later).toEqual({ ...renamed, url: later.url });
    expect(later.url).not.toBe(renamed.url);
  });

  it('makes a record with a variant still being made anew for each response', async () => {
    const photoOf = async () => ((await resolver.resolve(box(2))) as unknown as { photo: object }).photo;
    expect(await photoOf()).toBe(await photoOf());
    expect(toDto).toHaveBeenCalledTimes(1);

    rows[4] = { ...rows[4], variants: {} };
    expect(await photoOf()).toEqual({ id: 5, variants: { small: null } });
    await photoOf();
    expect(toDto).toHaveBeenCalledTimes(3);
  });

  it('writes a body as JSON, final only when no record it shows has a variant still being made', async () => {
    const final = await resolver.resolveToJsonText({ items: [box(1)] });
    expect(final.final).toBe(true);
    const parsed = JSON.parse(final.text!) as {
      items: Array<{ id: number; lid: { id: number }; contents: unknown[] }>;
    };
    expect(parsed.items[0]).toMatchObject({ id: 1, lid: { id: 1 }, contents: [{ id: 2 }, { id: 3 }] });

    rows[4] = { ...rows[4], variants: {} };
    const pending = await resolver.resolveToJsonText({ items: [box(1), box(2)] });
    expect(pending.final).toBe(false);
    expect(JSON.parse(pending.text!).items[1].photo).toEqual({ id: 5, variants: { small: null } });
  });

  it('resolves a page of entities with a single query', async () => {
    const page = { items: [box(1), box(2), box(3)], total: 3 };
    const resolved = (await resolver.resolve(page)) as unknown as { items: Array<Record<string, unknown>> };
    expect(findForOwners).toHaveBeenCalledTimes(1);
    expect(findForOwners.mock.calls[0][0]).toEqual(new Map([['box', [1, 2, 3]]]));
    const [one, two, three] = resolved.items;
    expect(one.lid).toMatchObject({ id: 1, sort_order: 0, attachment_type: 'box' });
    expect((one.lid as { url: string }).url).toMatch(
      /^https:\/\/api\.example\.com\/files\/1\/signed\?expires=\d+&signature=[\w-]{43}$/,
    );
    expect((one.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([2, 3]);
    expect(two.lid).toBeNull();
    expect((two.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([4]);
    expect(three.lid).toBeNull();
    expect(three.contents).toEqual([]);
    expect([one.photo, two.photo, three.photo]).toEqual([null, { id: 5, variants: {} }, null]);
  });

  it('writes the dates of entities as JSON would for a response, and only for a response', async () => {
    const dated = () =>
      Object.assign(box(1), { made: new Date(Date.UTC(2026, 10, 23, 10, 20, 5, 7)), lost: new Date(NaN) });
    const expected = JSON.stringify(await resolver.resolve(dated()));
    const kept = (await resolver.resolve(dated())) as unknown as Record<string, unknown>;
    expect(kept.made).toBeInstanceOf(Date);

    const written = (await resolver.resolveForJson({ items: [dated()] })).items[0] as unknown as Record<
      string,
      unknown
    >;
    expect([written.made, written.lost]).toEqual(['2026-11-23T10:20:05.007Z', null]);
    expect(JSON.stringify(written)).toBe(expected);
  });

  it('takes the records a joint read handed over instead of querying, each owner once, and only once', async () => {
    // The same box twice, and another object of the same box: its records shown once in each.
    const [one, two, oneAgain] = [box(1), box(2), box(1)];
    // Out of order, and one of another box: each box gets its own, by field and position.
    const handed = [rows[2], rows[3], rows[0], record(9, 7, 'lid', 0), rows[1]].map((row) => ({ ...row }));
    joint.handOver([one, two, oneAgain], handed);
    const page = { items: [one, two, one, oneAgain] };
    const [a, b, , c] = (await resolver.resolve(page)).items as unknown as Array<Record<string, unknown>>;
    expect(findForOwners).not.toHaveBeenCalled();
    expect(a.lid).toMatchObject({ id: 1 });
    expect((a.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([2, 3]);
    expect((c.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([2, 3]);
    expect((b.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([4]);
    // Not handed over (the joint read did not see it), so not shown: the response shows one snapshot.
    expect(b.photo).toBeNull();
    await resolver.resolve(one);
    expect(findForOwners).toHaveBeenCalledTimes(1);
  });

  it('queries for every owner when one of them was not handed its records', async () => {
    const one = box(1);
    joint.handOver([one], []);
    const [a, b] = (await resolver.resolve([one, box(2)])) as unknown as Array<Record<string, unknown>>;
    expect(findForOwners).toHaveBeenCalledTimes(1);
    expect(findForOwners.mock.calls[0][0]).toEqual(new Map([['box', [1, 2]]]));
    expect(a.lid).toMatchObject({ id: 1 });
    expect(b.photo).toEqual({ id: 5, variants: {} });
  });

  it("builds a joint read's file side on the owners' query", () => {
    expect(joint.attachmentType).toBe('box');
    expect(joint.nullColumns).toBe('NULL AS "id", NULL AS "storageKey"');
    expect(joint.select(2, '$2', '= $3')).toBe(
      'SELECT NULL, NULL, "id", "path" FROM "f" WHERE "attachment_type" = $2 AND "attachment_id" = $3',
    );
  });

  it('does not query when the body holds no attachable entity', async () => {
    await expect(resolver.resolve({ hello: 'world' })).resolves.toEqual({ hello: 'world' });
    expect(findForOwners).not.toHaveBeenCalled();
  });

  it('resolves an entity nested in another object', async () => {
    const body = { order: { box: box(1) } };
    await resolver.resolve(body);
    expect((body.order.box as unknown as Record<string, unknown>).lid).toMatchObject({ id: 1 });
    expect(findForOwners).toHaveBeenCalledTimes(1);
  });
});
