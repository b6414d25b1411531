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
    const owners = found.map(([entity, type]) => ({
      entity: entity as Record<string, unknown>,
      type,
      id: idOf(entity, type),
    }));
    const byOwner = groupByOwner(await this.fileRecords.findForOwners(idsByType(owners)));
    // Every field's records are presented at once, and awaited once for the whole response.
    const fields: Array<Promise<boolean>> = [];
    for (const { entity, type, id } of owners) {
      const files = id === undefined ? undefined : byOwner.get(type.type)?.get(id);
      for (const field of type.fields.values()) {
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
    return !shown.some((dto) => dto.variants && Object.values(dto.variants).includes(null));
  }

  /** The record as responses show it; one with a variant missing starts making it (see FileVariants.toDto). */
  private async present(record: FileRecord, field: FileFieldDefinition): Promise<FileRecordDto> {
    return field.variants ? this.variants.toDto(record) : FileRecordDto.from(record, await this.urls.urlOf(record));
  }
}

function idOf(entity: object, type: AttachableEntity): number | undefined {
  const id = (entity as Record<string, unknown>)[type.metadata.primaryColumns[0].propertyName];
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
}

function idsByType(owners: Array<{ type: AttachableEntity; id: number | undefined }>): Map<string, number[]> {
  const ids = new Map<string, Set<number>>();
  for (const { type, id } of owners) {
    if (id === undefined) continue;
    ids.set(type.type, (ids.get(type.type) ?? new Set()).add(id));
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
