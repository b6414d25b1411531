import { Injectable } from '@nestjs/common';
import { FileFieldRegistry, type AttachableEntity } from '../fields/file-field.registry.js';
import type { FileFieldDefinition } from '../fields/file-field.decorator.js';
import { FileRecordDto } from '../records/file-record.dto.js';
import type { FileRecord } from '../records/file-record.entity.js';
import { FileRecordsRepository } from '../records/file-records.repository.js';
import { FileVariants } from '../images/variants/file-variants.service.js';
import { FileUrls } from '../urls/file-urls.js';
import { collectMatches } from './response-walker.js';

/**
 * Fills the file fields of every entity found in a response body: one query for all of them,
 * whatever their number and types. A single field gets its record or null; a multi field an ordered array. Records
 * of a field with image variants list them (see FileVariants.describe).
 */
@Injectable()
export class FileFieldResolver {
  constructor(
    private readonly registry: FileFieldRegistry,
    private readonly fileRecords: FileRecordsRepository,
    private readonly urls: FileUrls,
    private readonly variants: FileVariants,
  ) {}

  async resolve<T>(body: T): Promise<T> {
    await this.fill(body);
    return body;
  }

  /**
   * Fills the file fields of the body's entities, as {@link resolve} does; true when every record shown is final
   * (none with an image variant still being made), so that the same data gives the same body for the URL window.
   */
  async fill(body: unknown): Promise<boolean> {
    if (this.registry.size === 0) return true;
    const found = collectMatches(body, (value) => this.registry.forInstance(value));
    if (found.length === 0) return true;
    const owners = found.map(([entity, type]) => {
      const plan = planOf(type);
      return { entity: entity as Record<string, unknown>, plan, id: idOf(entity, plan) };
    });
    const byOwner = groupByOwner(await this.fileRecords.findForOwners(idsByType(owners)));
    // Every field's records are presented at once, and awaited once for the whole response. Each field is set when
    // its records are presented, empty ones at once: the order of the answer's keys is the one it has always had.
    const fields: Array<Promise<boolean>> = [];
    for (const { entity, plan, id } of owners) {
      const files = id === undefined ? undefined : byOwner.get(plan.type)?.get(id);
      for (const field of plan.fields) {
        const records = files?.get(field.name);
        if (records) fields.push(this.fillField(entity, field, records));
        else entity[field.name] = field.multi ? [] : null;
      }
    }
    return (await Promise.all(fields)).every(Boolean);
  }

  /** Sets the field to its records as shown (a single field shows its first); true when none lacks a variant. */
  private async fillField(
    entity: Record<string, unknown>,
    field: FileFieldDefinition,
    records: readonly FileRecord[],
  ): Promise<boolean> {
    const shown = await Promise.all((field.multi ? records : records.slice(0, 1)).map((r) => this.present(r, field)));
    entity[field.name] = field.multi ? shown : shown[0];
    return shown.every(isFinal);
  }

  /** The record as responses show it; one with a variant missing starts making it (see FileVariants.toDto). */
  private async present(record: FileRecord, field: FileFieldDefinition): Promise<FileRecordDto> {
    return field.variants ? this.variants.toDto(record) : FileRecordDto.from(record, await this.urls.urlOf(record));
  }
}

/** What the resolution needs of an entity type, worked out once per type. */
interface Plan {
  type: string;
  idProperty: string;
  fields: readonly FileFieldDefinition[];
}

const plans = new WeakMap<AttachableEntity, Plan>();

function planOf(type: AttachableEntity): Plan {
  let plan = plans.get(type);
  if (!plan) {
    const idProperty = type.metadata.primaryColumns[0].propertyName;
    plans.set(type, (plan = { type: type.type, idProperty, fields: [...type.fields.values()] }));
  }
  return plan;
}

/** Shows no image variant still being made. */
function isFinal(dto: FileRecordDto): boolean {
  if (!dto.variants) return true;
  for (const name in dto.variants) if (dto.variants[name] === null) return false;
  return true;
}

function idOf(entity: object, plan: Plan): number | undefined {
  const id = (entity as Record<string, unknown>)[plan.idProperty];
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
}

function idsByType(owners: Array<{ plan: Plan; id: number | undefined }>): Map<string, number[]> {
  const ids = new Map<string, Set<number>>();
  for (const { plan, id } of owners) {
    if (id === undefined) continue;
    ids.set(plan.type, (ids.get(plan.type) ?? new Set()).add(id));
  }
  return new Map([...ids].map(([type, set]) => [type, [...set]]));
}

/** type → id → field → records, keeping the query's sort order. */
function groupByOwner(records: FileRecord[]): Map<string, Map<number, Map<string, FileRecord[]>>> {
  const grouped = new Map<string, Map<number, Map<string, FileRecord[]>>>();
  for (const record of records) {
    let owners = grouped.get(record.attachmentType);
    if (!owners) grouped.set(record.attachmentType, (owners = new Map<number, Map<string, FileRecord[]>>()));
    let fields = owners.get(record.attachmentId);
    if (!fields) owners.set(record.attachmentId, (fields = new Map<string, FileRecord[]>()));
    const list = fields.get(record.field);
    if (list) list.push(record);
    else fields.set(record.field, [record]);
  }
  return grouped;
}
