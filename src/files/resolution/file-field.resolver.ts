import { Injectable } from '@nestjs/common';
import { deepFreeze } from '../../common/deep-freeze.js';
import { hasKeptJsonText, holdsKeptJsonText, keepJsonText, toJson } from '../../common/http/json-text.js';
import { FileFieldRegistry, type AttachableEntity } from '../file-field.registry.js';
import { FileRecordDto, isoString } from '../file-record.dto.js';
import { FileRecordsRepository, type StoredFileRow } from '../file-records.repository.js';
import { FileUrls } from '../urls/file-urls.js';
import { WindowCache } from '../urls/window-cache.js';
import type { FileFieldDefinition } from '../file-field.decorator.js';
import { collectMatches } from './response-walker.js';
import { FileVariants } from '../images/file-variants.service.js';
import { takeHandedOverRows } from './joint-file-reads.js';

/**
 * Records as responses show them, by id with the row they were made of, for the URL window they were made in: every
 * response that shows a record again, unchanged, takes it from here without converting its row or looking up URLs.
 */
const PRESENTED_LIMIT = 5_000;

/**
 * Fills the file fields of every entity found in a response body: one query for all of them,
 * whatever their number and types. A single field gets its record or null; a multi field an ordered array. Records
 * of a field with image variants list them (see FileVariants.describe).
 */
@Injectable()
export class FileFieldResolver {
  private readonly presented = new WindowCache<number, Presented>(PRESENTED_LIMIT);

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
   * {@link resolve} for a body about to be written as JSON, as the interceptor writes every response: each entity's
   * own Date values are also replaced by the text JSON.stringify would write for them (see {@link asJsonDates}), and a
   * body showing records whose JSON text is kept is marked for res.json to copy that text (see json-text.ts).
   */
  async resolveForJson<T>(body: T): Promise<T> {
    return (await this.resolveJson(body)).body;
  }

  /**
   * The body's JSON text, resolved as {@link resolveForJson} resolves it, and whether every record it shows is final
   * (none with an image variant still being made): then the same data gives the same text for the rest of the window.
   */
  async resolveToJsonText(body: unknown): Promise<{ text: string | undefined; final: boolean }> {
    const { final } = await this.resolveJson(body);
    return { text: toJson(body), final };
  }

  private async resolveJson<T>(body: T): Promise<{ body: T; final: boolean }> {
    const { entities, keptText, final } = await this.fill(body);
    for (const entity of entities) asJsonDates(entity);
    if (keptText) holdsKeptJsonText(body as object);
    return { body, final };
  }

  /**
   * Fills the file fields of the body's entities; returns those entities, whether a record's text is kept, and
   * whether every record's is.
   */
  private async fill(
    body: unknown,
  ): Promise<{ entities: Array<Record<string, unknown>>; keptText: boolean; final: boolean }> {
    const none = { entities: [], keptText: false, final: true };
    if (this.registry.size === 0) return none;
    const found = collectMatches(body, (value) => this.registry.forInstance(value));
    if (found.length === 0) return none;
    const owners = found.map(([entity, type]) => ({
      entity: entity as Record<string, unknown>,
      type,
      id: idOf(entity, type),
    }));
    // Records a joint read took in the same statement as the entities (JointFileReads), else one query for all.
    const rows = takeHandedOverRows(owners) ?? (await this.fileRecords.findForOwners(idsByType(owners)));
    const byOwner = groupByOwner(rows);
    const presented = this.presented.of(this.urls.window().start);
    let keptText = false;
    let final = true;
    for (const { entity, type, id } of owners) {
      const files = id === undefined ? undefined : byOwner.get(type.type)?.get(id);
      for (const field of type.fields.values()) {
        const rows = files?.get(field.name);
        if (!rows) {
          entity[field.name] = field.multi ? [] : null;
          continue;
        }
        const shown = rows.map((row) => this.present(row, field, presented));
        for (const dto of shown) {
          if (hasKeptJsonText(dto)) keptText = true;
          else final = false;
        }
        entity[field.name] = field.multi ? shown : shown[0];
      }
    }
    return { entities: owners.map(({ entity }) => entity), keptText, final };
  }

  /**
   * The record as responses show it, made once per window for the same row and shared by the responses that show it
   * (so frozen, and written as JSON text kept with it). One with a variant still being made is made anew each time,
   * which starts making it if need be.
   */
  private present(row: StoredFileRow, field: FileFieldDefinition, presented: Map<number, Presented>) {
    const known = presented.get(row.id);
    if (known && this.fileRecords.sameRow(known.row, row)) return known.dto;
    const stored = this.fileRecords.copyRow(row);
    const record = this.fileRecords.hydrate(row);
    const dto = field.variants ? this.variants.toDto(record) : FileRecordDto.from(record, this.urls.urlOf(record));
    if (!dto.variants || !Object.values(dto.variants).includes(null)) {
      presented.set(row.id, { row: stored, dto: deepFreeze(dto) });
      keepJsonText(dto);
    }
    return dto;
  }
}

/** A record as shown, and the row it was made of. */
interface Presented {
  row: StoredFileRow;
  dto: FileRecordDto;
}

/**
 * Replaces the Date values of the object's properties by what their `toJSON()` gives, formatted here: V8's
 * JSON.stringify calls each Date's `toJSON` on a slow path, which took a quarter of the CPU of a list of 50 entities
 * with two timestamps each.
 */
function asJsonDates(entity: Record<string, unknown>): void {
  for (const key in entity) {
    const value = entity[key];
    if (value instanceof Date) entity[key] = Number.isFinite(value.getTime()) ? isoString(value) : null;
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
function groupByOwner(records: StoredFileRow[]): Map<string, Map<number, Map<string, StoredFileRow[]>>> {
  const grouped = new Map<string, Map<number, Map<string, StoredFileRow[]>>>();
  for (const record of records) {
    let owners = grouped.get(record.attachmentType);
    if (!owners) grouped.set(record.attachmentType, (owners = new Map<number, Map<string, StoredFileRow[]>>()));
    let fields = owners.get(record.attachmentId);
    if (!fields) owners.set(record.attachmentId, (fields = new Map<string, StoredFileRow[]>()));
    const list = fields.get(record.field);
    if (list) list.push(record);
    else fields.set(record.field, [record]);
  }
  return grouped;
}
