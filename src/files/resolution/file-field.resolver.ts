import { Injectable } from '@nestjs/common';
import { FileFieldRegistry, type AttachableEntity } from '../file-field.registry.js';
import { FileRecordDto } from '../file-record.dto.js';
import { FileRecordsRepository, type FileRecordRow } from '../file-records.repository.js';
import { FileUrls } from '../urls/file-urls.js';
import { collectMatches } from './response-walker.js';
import { FileVariants } from '../images/file-variants.service.js';

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
    if (this.registry.size === 0) return body;
    const found = collectMatches(body, (value) => this.registry.forInstance(value));
    if (found.length === 0) return body;
    const owners = found.map(([entity, type]) => ({
      entity: entity as Record<string, unknown>,
      type,
      id: idOf(entity, type),
    }));
    const byOwner = groupByOwner(await this.fileRecords.findForOwners(idsByType(owners)));
    for (const { entity, type, id } of owners) {
      const files = byOwner.get(`${type.type}:${id}`);
      for (const field of type.fields.values()) {
        const records = files?.get(field.name);
        const present = (record: FileRecordRow) => (field.variants ? this.variants.toDto(record) : this.dto(record));
        if (field.multi) entity[field.name] = records ? records.map(present) : [];
        else entity[field.name] = records ? present(records[0]) : null;
      }
    }
    return body;
  }

  private dto(record: FileRecordRow): FileRecordDto {
    return FileRecordDto.from(record, this.urls.urlOf(record));
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

/** `type:id` → field → records, keeping the query's sort order. */
function groupByOwner(records: FileRecordRow[]): Map<string, Map<string, FileRecordRow[]>> {
  const grouped = new Map<string, Map<string, FileRecordRow[]>>();
  for (const record of records) {
    const key = `${record.attachmentType}:${record.attachmentId}`;
    const fields = grouped.get(key) ?? grouped.set(key, new Map()).get(key)!;
    const list = fields.get(record.field);
    if (list) list.push(record);
    else fields.set(record.field, [record]);
  }
  return grouped;
}
