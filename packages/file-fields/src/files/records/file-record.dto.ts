import { ApiExtraModels, ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { FileRecord } from './file-record.entity.js';
import { FileVariantDto } from './file-variant.dto.js';

const IMAGE_SIDE = 'Pixels of an image as shown (EXIF orientation applied; one frame); null for other files';

/** The JSON shape of a file record: exactly these snake_case names. */
@ApiSchema({ name: 'FileRecord', description: 'One file of a file field' })
@ApiExtraModels(FileVariantDto)
export class FileRecordDto {
  @ApiProperty({ type: 'integer', example: 1 }) id!: number;
  @ApiProperty({ example: 'product/7/2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11', description: 'Storage key' })
  path!: string;
  @ApiProperty({
    format: 'uri',
    example:
      'https://api.example.com/files/1/signed?expires=1795440000&signature=FrgZyg_MC2qIJ_T-MCdg92wBlgelbXe5ZVO07AnVO_I',
    description:
      'The content, without an Authorization header, until the URL expires (at least FILE_URL_TTL, default an hour). ' +
      'The same for up to an hour, so caches keep it; new when the file is replaced. With FILE_URL_MODE=direct, a ' +
      'presigned URL of the S3 bucket.',
  })
  url!: string;
  @ApiProperty({ type: 'integer', example: 7 }) attachment_id!: number;
  @ApiProperty({ example: 'product' }) attachment_type!: string;
  @ApiProperty({ example: 'gallery' }) field!: string;
  @ApiProperty({ type: 'integer', example: 0, description: 'Position within the field, from 0' }) sort_order!: number;
  @ApiProperty({ example: 'photo.png' }) original_name!: string;
  @ApiProperty({ example: 'image/png', description: 'Sniffed from the bytes' }) mime_type!: string;
  @ApiProperty({ type: 'integer', example: 48213, description: 'Bytes' }) size!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 1200, description: IMAGE_SIDE }) width!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 800, description: IMAGE_SIDE }) height!: number | null;
  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: {
      oneOf: [{ $ref: getSchemaPath(FileVariantDto) }, { type: 'object', nullable: true, enum: [null] }],
    },
    description:
      'Only in fields that declare image variants: each variant by name, null while it is being made. A file ' +
      'that is no JPEG, PNG, WebP, GIF, AVIF or TIFF image has none ({}), nor has an image whose pixels do not decode.',
  })
  variants?: Record<string, FileVariantDto | null>;
  @ApiProperty({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' })
  checksum_sha256!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  /**
   * Built by plain assignments, in the order of the JSON keys: it runs for every record of every response. `url`
   * comes from FileUrls; without it (webhook events, which outlive any URL) the record has none.
   */
  static from(record: FileRecord, url?: string): FileRecordDto {
    const dto = new FileRecordDto();
    dto.id = record.id;
    dto.path = record.storageKey;
    dto.url = url!;
    dto.attachment_id = record.attachmentId;
    dto.attachment_type = record.attachmentType;
    dto.field = record.field;
    dto.sort_order = record.sortOrder;
    dto.original_name = record.originalName;
    dto.mime_type = record.mimeType;
    dto.size = record.size;
    dto.width = record.width ?? null;
    dto.height = record.height ?? null;
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
