import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { AttachmentOwners } from '../../fields/attachment-owners.js';
import { FakeFileFieldRegistry } from '../../testing/file-fixtures.js';
import { asReal, FakeAttachmentOwnersRepository, FakeUnitOfWork } from '../../testing/in-memory-repositories.js';
import type { UnitOfWork } from '../../../database/unit-of-work.js';
import type { PendingUpload } from './pending-upload.entity.js';
import type { PendingUploadKind } from './pending-upload-kind.js';
import { PendingUploadsSweep } from './pending-uploads-sweep.js';

/** A kind of pending upload in memory that writes down, in order, what the sweep did to it. */
class FakeKind implements PendingUploadKind {
  readonly steps: string[] = [];
  failBytesOf = new Set<string>();
  constructor(
    readonly name: 'resumable' | 'direct',
    readonly rows: PendingUpload[],
  ) {}
  open(): never {
    throw new Error('unused');
  }
  expired(nowMs: number, limit: number): Promise<PendingUpload[]> {
    return Promise.resolve(this.rows.filter((row) => row.expiresAt <= nowMs).slice(0, limit));
  }
  dropBytes(upload: PendingUpload): Promise<void> {
    if (this.failBytesOf.has(upload.storageKey)) return Promise.reject(new Error('storage down'));
    this.steps.push(`bytes ${upload.storageKey}`);
    return Promise.resolve();
  }
  deleteRow(id: number, _manager: EntityManager): Promise<void> {
    this.steps.push(`row ${id}`);
    this.rows.splice(
      this.rows.findIndex((row) => row.id === id),
      1,
    );
    return Promise.resolve();
  }
  sweepStrays(): Promise<string[]> {
    return Promise.resolve([`stray of ${this.name}`]);
  }
}

const upload = (id: number, expiresAt: number): PendingUpload => ({
  id,
  idHash: `hash-${id}`,
  attachmentType: 'article',
  attachmentId: 7,
  field: 'f',
  subject: 'user:1',
  storageKey: `article/7/${id}`,
  createdAt: 0,
  expiresAt,
});

describe('PendingUploadsSweep', () => {
  const setup = (...kinds: FakeKind[]) => {
    const registry = new FakeFileFieldRegistry({ article: [{ name: 'f', multi: false }] });
    const ownerRows = new FakeAttachmentOwnersRepository();
    const locked: number[] = [];
    const owners = new AttachmentOwners(asReal(registry), asReal(ownerRows));
    owners.lock = (_tx, _owner, id) => Promise.resolve(void locked.push(id));
    const clock = { nowMs: () => 1_000 } as Clock;
    const sweep = new PendingUploadsSweep(
      kinds,
      asReal<UnitOfWork>(new FakeUnitOfWork()),
      owners,
      asReal(registry),
      clock,
    );
    return { sweep, locked };
  };

  it('ends every kind in one order: bytes, then the row under the owner lock; live uploads stay', async () => {
    const direct = new FakeKind('direct', [upload(1, 500), upload(2, 5_000)]);
    const resumable = new FakeKind('resumable', [upload(3, 900)]);
    const { sweep, locked } = setup(direct, resumable);
    const reports = await sweep.sweep(0, false);
    expect(direct.steps).toEqual(['bytes article/7/1', 'row 1']);
    expect(resumable.steps).toEqual(['bytes article/7/3', 'row 3']);
    expect(locked).toEqual([7, 7]);
    expect(direct.rows.map((row) => row.id)).toEqual([2]);
    expect(reports.get('direct')).toEqual({ expired: ['article/7/1'], strays: ['stray of direct'] });
    expect(reports.get('resumable')).toEqual({ expired: ['article/7/3'], strays: ['stray of resumable'] });
  });

  it('keeps the row of an upload whose bytes could not be removed, for the next sweep', async () => {
    const direct = new FakeKind('direct', [upload(1, 500), upload(2, 600)]);
    direct.failBytesOf.add('article/7/1');
    const { sweep } = setup(direct);
    const reports = await sweep.sweep(0, false);
    expect(direct.rows.map((row) => row.id)).toEqual([1]);
    expect(reports.get('direct')?.expired).toEqual(['article/7/2']);
  });

  it('only names what is due in a dry run', async () => {
    const direct = new FakeKind('direct', [upload(1, 500)]);
    const { sweep } = setup(direct);
    expect((await sweep.sweep(0, true)).get('direct')?.expired).toEqual(['article/7/1']);
    expect(direct.steps).toEqual([]);
  });
});
