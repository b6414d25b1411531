import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

/** S3's most parts of one multipart upload. */
export const MAX_PARTS = 10_000;

@ApiSchema({ name: 'StartDirectUpload', description: 'The file a client is about to send straight to the storage' })
export class StartDirectUploadDto {
  @ApiProperty({ example: 'holiday.mp4', maxLength: 255, description: 'Kept for display only' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  filename!: string;

  @ApiProperty({
    example: 'video/mp4',
    maxLength: 255,
    description: "Checked against the field's accepted types now; the record takes the type sniffed from the bytes",
  })
  @IsString()
  @Matches(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i, { message: 'content_type must be a MIME type (type/subtype)' })
  @MaxLength(255)
  content_type!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 73_400_320, description: 'Exact size in bytes' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  size!: number;
}

@ApiSchema({ name: 'DirectUploadPart', description: "One part's presigned URL" })
export class DirectUploadPartDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_PARTS, example: 1 })
  part_number!: number;

  @ApiProperty({
    format: 'uri',
    description:
      'PUT exactly `size` bytes of the file here, without an Authorization header; the response has the ETag ' +
      'header to send at completion',
  })
  url!: string;

  @ApiProperty({ type: 'integer', example: 8_388_608, description: 'Bytes of this part (the Content-Length)' })
  size!: number;
}

@ApiSchema({ name: 'DirectUpload', description: 'A direct upload: where each part goes, and where to complete it' })
export class DirectUploadDto {
  @ApiProperty({
    example: 'p3JxV0bq2ZbWcV3bO7mJ4m2sYlq8y5rQKcIuE3Hh1Xw',
    description: 'Unguessable (256 bits); only the principal that started the upload can use it',
  })
  id!: string;

  @ApiProperty({ type: 'integer', example: 8_388_608, description: 'Bytes per part; the last part may be shorter' })
  part_size!: number;

  @ApiProperty({ type: [DirectUploadPartDto] })
  parts!: DirectUploadPartDto[];

  @ApiProperty({ example: '/files/direct-uploads/p3JxV0bq2ZbWcV3bO7mJ4m2sYlq8y5rQKcIuE3Hh1Xw/complete' })
  complete_url!: string;

  @ApiProperty({
    format: 'date-time',
    description: 'The part URLs stop working then, and an upload not completed by then is removed',
  })
  expires_at!: string;
}

@ApiSchema({ name: 'UploadedPart', description: 'A part the client has PUT, with the ETag the storage answered' })
export class UploadedPartDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_PARTS, example: 1 })
  @IsInt()
  @Min(1)
  @Max(MAX_PARTS)
  part_number!: number;

  @ApiProperty({ example: '"9b2cf535f27731c974343645a3985328"', maxLength: 1024 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  etag!: string;
}

@ApiSchema({ name: 'CompleteDirectUpload', description: 'Every part of the upload, in order' })
export class CompleteDirectUploadDto {
  @ApiProperty({ type: [UploadedPartDto], minItems: 1, maxItems: MAX_PARTS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PARTS)
  @ValidateNested({ each: true })
  @Type(() => UploadedPartDto)
  parts!: UploadedPartDto[];
}
