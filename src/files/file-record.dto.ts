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

  static from(record: FileRecord): FileRecordDto {
    return Object.assign(new FileRecordDto(), {
      id: record.id,
      path: record.storageKey,
      attachment_id: record.attachmentId,
      attachment_type: record.attachmentType,
      field: record.field,
      sort_order: record.sortOrder,
      original_name: record.originalName,
      mime_type: record.mimeType,
      size: record.size,
      checksum_sha256: record.checksumSha256,
      created_at: new Date(record.createdAt).toISOString(),
      updated_at: new Date(record.updatedAt).toISOString(),
    });
  }
}
