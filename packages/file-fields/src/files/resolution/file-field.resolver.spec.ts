import { jest } from '@jest/globals';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AttachmentType, FileField } from '../fields/file-field.decorator.js';
import { FileFieldRegistry } from '../fields/file-field.registry.js';
import { resolveFileFieldsOptions } from '../fields/file-fields.options.js';
import { FakeClock } from '../../common/testing/fakes.js';
import type { FileRecordDto } from '../records/file-record.dto.js';
import type { FileRecord } from '../records/file-record.entity.js';
import type { FileRecordsRepository } from '../records/file-records.repository.js';
import { FakeFileStorage } from '../testing/file-fixtures.js';
import { FileUrls } from '../urls/file-urls.js';
import type { FileVariants } from '../images/variants/file-variants.service.js';
import { FileFieldResolver } from './file-field.resolver.js';

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
    const fileRecords = { findForOwners };
    const storage = new FakeFileStorage();
    clock = new FakeClock(Date.UTC(2026, 10, 23, 10, 20));
    const options = resolveFileFieldsOptions({ storage, publicUrl: 'https://api.example.com' });
    const urls = new FileUrls(options, storage, clock);
    // Records of a field with variants are presented by FileVariants, with their `variants`.
    toDto = jest.fn((r: FileRecord) => ({ id: r.id, variants: r.variants ? { small: null } : {} }));
    const variants = { toDto } as unknown as FileVariants;
    resolver = new FileFieldResolver(registry, fileRecords as unknown as FileRecordsRepository, urls, variants);
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

  it('shows each record as its row is now, with the URL of the window', async () => {
    const first = await lidOf(1);
    expect(first).toMatchObject({ id: 1, original_name: '1.bin', created_at: '1970-01-01T00:00:00.000Z' });

    rows[0] = { ...rows[0], originalName: 'renamed.bin' };
    const renamed = await lidOf(1);
    expect(renamed.original_name).toBe('renamed.bin');
    expect(renamed.url).toBe(first.url);

    clock.advance(3_600_000);
    const later = await lidOf(1);
    expect(later).toEqual({ ...renamed, url: later.url });
    expect(later.url).not.toBe(renamed.url);
  });

  it('tells whether every record it shows is final (none with a variant still being made)', async () => {
    const page = { items: [box(1), box(2)] };
    expect(await resolver.fill(page)).toBe(true);
    expect(page.items[1]).toMatchObject({ photo: { id: 5, variants: {} } });

    rows[4] = { ...rows[4], variants: {} };
    const pending = { items: [box(1), box(2)] };
    expect(await resolver.fill(pending)).toBe(false);
    expect(pending.items[1]).toMatchObject({ photo: { id: 5, variants: { small: null } } });
    expect(toDto).toHaveBeenCalledTimes(2);
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

  it("leaves the entities' own values as they are", async () => {
    const made = new Date(Date.UTC(2026, 10, 23, 10, 20, 5, 7));
    const resolved = (await resolver.resolve(Object.assign(box(1), { made }))) as unknown as Record<string, unknown>;
    expect(resolved.made).toBe(made);
  });

  it('shows each entity its own records when it appears more than once', async () => {
    const [one, two] = [box(1), box(2)];
    const [a, b, c] = (await resolver.resolve([one, two, box(1)])) as unknown as Array<Record<string, unknown>>;
    expect(findForOwners).toHaveBeenCalledTimes(1);
    expect(findForOwners.mock.calls[0][0]).toEqual(new Map([['box', [1, 2]]]));
    expect((a.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([2, 3]);
    expect((c.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([2, 3]);
    expect((b.contents as Array<{ id: number }>).map((f) => f.id)).toEqual([4]);
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
