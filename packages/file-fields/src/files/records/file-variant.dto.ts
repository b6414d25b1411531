import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { StoredVariant } from './variant-state.js';

/** The JSON shape of one image variant of a file record. */
@ApiSchema({ name: 'FileVariant', description: 'One image variant of a file, as its field declares it' })
export class FileVariantDto {
  @ApiProperty({
    format: 'uri',
    description: 'URL of the variant that works without an Authorization header until it expires (signed)',
  })
  url!: string;
  @ApiProperty({ type: 'integer', example: 200, description: 'Pixels (of one frame when animated)' }) width!: number;
  @ApiProperty({ type: 'integer', example: 200, description: 'Pixels (of one frame when animated)' }) height!: number;
  @ApiProperty({ type: 'integer', example: 8133, description: 'Bytes' }) size!: number;
  @ApiProperty({ example: 'image/webp' }) mime_type!: string;

  static from(variant: StoredVariant, url: string): FileVariantDto {
    const dto = new FileVariantDto();
    dto.url = url;
    dto.width = variant.width;
    dto.height = variant.height;
    dto.size = variant.size;
    dto.mime_type = variant.mimeType;
    return dto;
  }
}
