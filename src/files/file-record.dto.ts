import { ApiProperty } from '@nestjs/swagger';
import type { FileRecord } from './file-record.entity.js';

/** The JSON shape of a file record: exactly these snake_case names. */
export class FileRecordDto {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'product/7/2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11', description: 'Storage key' })
  path!: string;
  @ApiProperty({ example: 7 }) attachment_id!: number;
  @ApiProperty({ example: 'product' }) attachment_type!: string;
  @ApiProperty({ example: 'gallery' }) field!: string;
  @ApiProperty({ example: 0, description: 'Position within the field, from 0' }) sort_order!: number;
  @ApiProperty({ example: 'photo.png' }) original_name!: string;
  @ApiProperty({ example: 'image/png', description: 'Sniffed from the bytes' }) mime_type!: string;
  @ApiProperty({ example: 48213, description: 'Bytes' }) size!: number;
  @ApiProperty({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' })
  checksum_sha256!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;

  /** Built by plain assignments, in the order of the JSON keys: it runs for every record of every response. */
  static from(record: FileRecord): FileRecordDto {
    const dto = new FileRecordDto();
    dto.id = record.id;
    dto.path = record.storageKey;
    dto.attachment_id = record.attachmentId;
    dto.attachment_type = record.attachmentType;
    dto.field = record.field;
    dto.sort_order = record.sortOrder;
    dto.original_name = record.originalName;
    dto.mime_type = record.mimeType;
    dto.size = record.size;
    dto.checksum_sha256 = record.checksumSha256;
    dto.created_at = isoString(record.createdAt);
    dto.updated_at = isoString(record.updatedAt);
    return dto;
  }
}

/** `toISOString()` of the date, formatted in JavaScript for the common years: it runs twice per record. */
export function isoString(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value);
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  const ms = date.getUTCMilliseconds();
  return (
    `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}` +
    `T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}` +
    `.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`
  );
}

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
