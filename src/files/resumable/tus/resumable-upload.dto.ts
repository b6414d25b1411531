import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** What a tus creation answers besides its headers (tus clients read only those), for other clients. */
@ApiSchema({ name: 'ResumableUpload', description: 'A resumable upload, as created (tus)' })
export class ResumableUploadDto {
  @ApiProperty({
    format: 'uri',
    example: 'https://api.example.com/files/uploads/d2hhdCBhIG5pY2UgaWQgdGhpcyBpcw',
    description: 'The upload resource (also in Location): HEAD for its offset, PATCH to append, DELETE to end it',
  })
  upload_url!: string;
  @ApiProperty({ type: 'integer', example: 0, description: 'Bytes stored so far' }) offset!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 104857600, description: 'The whole length; null: deferred' })
  length!: number | null;
  @ApiProperty({ format: 'date-time', description: 'When it expires unless a request continues it' })
  expires_at!: string;
  @ApiProperty({
    type: 'integer',
    required: false,
    description: 'The file record, when the creation carried every byte and completed it',
  })
  file_id?: number;
}
