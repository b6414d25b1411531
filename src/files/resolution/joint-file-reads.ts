import { Injectable } from '@nestjs/common';
import { FileFieldRegistry, type AttachableEntity } from '../file-field.registry.js';
import { bySlot, FileRecordsRepository, type StoredFileRow } from '../file-records.repository.js';

/** Entities read together with their file records → those records, until the resolver takes them. */
const handedOver = new WeakMap<object, readonly StoredFileRow[]>();

/**
 * The file side of a read that takes its entities' file records in the same statement as the entities: a
 * `UNION ALL` branch, and the hand-over of its rows to the resolver, which then runs no query of its own for them.
 * One statement instead of two is one round trip and one snapshot; on PostgreSQL, where each statement is a round
 * trip to another process on the same cores, it is most of a read's cost.
 *
 * The entity branch selects the entity's own columns under names no file column has (an alias prefix), then
 * {@link nullColumns}; the file branch ({@link select}) as many NULLs, then the file columns. A row is a file row when
 * its entity columns are NULL.
 */
export class JointFileSide {
  /** `NULL AS "id", …`: the entity branch's last columns, under the names the file rows have. */
  readonly nullColumns: string;

  constructor(
    private readonly records: FileRecordsRepository,
    private readonly entity: AttachableEntity,
  ) {
    const { select } = records.ownerQuery();
    this.nullColumns = select.selectList.map((column) => `NULL${column.slice(column.lastIndexOf(' AS '))}`).join(', ');
  }

  /** The value to bind to the file branch's type parameter. */
  get attachmentType(): string {
    return this.entity.type;
  }

  /**
   * `SELECT NULL, … (leading), <file columns> FROM <file records> WHERE <type> = <typeParameter> AND <owner> <owners>`,
   * e.g. with owners `= $3` or `IN (SELECT …)`.
   */
  select(leading: number, typeParameter: string, owners: string): string {
    const { select, type, id } = this.records.ownerQuery();
    const nulls = Array.from({ length: leading }, () => 'NULL, ').join('');
    return `SELECT ${nulls}${select.columnList} FROM ${select.table} WHERE ${type} = ${typeParameter} AND ${id} ${owners}`;
  }

  /**
   * Hands each entity its file rows (none: an empty list), sorted as the owners' query sorts them, for the resolution
   * of the response that shows them. Rows of other owners are dropped.
   */
  handOver(entities: readonly object[], fileRows: StoredFileRow[]): void {
    const idProperty = this.entity.metadata.primaryColumns[0].propertyName;
    const byOwner = new Map<number, StoredFileRow[]>();
    for (const row of fileRows.sort(bySlot)) {
      const own = byOwner.get(row.attachmentId);
      if (own) own.push(row);
      else byOwner.set(row.attachmentId, [row]);
    }
    for (const entity of entities) {
      handedOver.set(entity, byOwner.get((entity as Record<string, number>)[idProperty]) ?? []);
    }
  }
}

/** Builds the {@link JointFileSide} of entity classes with file fields. */
@Injectable()
export class JointFileReads {
  constructor(
    private readonly registry: FileFieldRegistry,
    private readonly records: FileRecordsRepository,
  ) {}

  /** The file side for instances of this entity class; undefined if it declares no file fields. */
  of(target: Function): JointFileSide | undefined {
    const entity = this.registry.forClass(target);
    return entity && new JointFileSide(this.records, entity);
  }
}

/**
 * The file rows of these owners, when a joint read handed every one of them over; each owner's rows once, however
 * often it appears in the response. Taken: resolving the same objects again queries anew.
 */
export function takeHandedOverRows(
  owners: ReadonlyArray<{ entity: object; type: AttachableEntity; id: number | undefined }>,
): StoredFileRow[] | undefined {
  for (const { entity } of owners) if (!handedOver.has(entity)) return undefined;
  const rows: StoredFileRow[] = [];
  const taken = new Map<AttachableEntity, Set<number>>();
  for (const { entity, type, id } of owners) {
    const own = handedOver.get(entity);
    handedOver.delete(entity);
    if (!own || id === undefined) continue;
    const ids = taken.get(type) ?? new Set<number>();
    if (ids.has(id)) continue;
    taken.set(type, ids.add(id));
    for (const row of own) if (row.attachmentType === type.type && row.attachmentId === id) rows.push(row);
  }
  return rows;
}
