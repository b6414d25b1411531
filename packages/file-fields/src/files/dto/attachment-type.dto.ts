import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { AttachmentTypeView } from '../fields/attachment-types.service.js';
import type { FileFieldRules } from '../fields/file-field-rules.js';

/** One file field and the rules an upload to it must meet. */
@ApiSchema({ name: 'FileFieldRules' })
export class FileFieldRulesDto {
  @ApiProperty({ example: 'cover' }) name!: string;
  @ApiProperty({ example: false, description: 'true: an ordered list of files; false: one file or none' })
  multi!: boolean;
  @ApiProperty({
    example: ['image/*'],
    description: 'MIME types and patterns accepted, judged on the type sniffed from the bytes (`*/*`: any type)',
  })
  accept!: string[];
  @ApiProperty({
    example: ['text/html', 'image/svg+xml'],
    description: 'Types refused even where a pattern of `accept` matches: named exactly in `accept`, they are not',
  })
  refused!: string[];
  @ApiProperty({ type: 'integer', example: 5242880, description: 'Largest file in bytes (MAX_FILE_SIZE applied)' })
  max_size!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 30,
    description: 'Most files the field holds: 1 for a single field (an upload replaces its file); null: no limit',
  })
  max_count!: number | null;
  @ApiProperty({ type: 'integer', example: 20, description: 'Most `file` parts one upload request may carry' })
  max_files_per_request!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 268402689,
    description: 'Most pixels (width × height) of an image; null when the field does not look at images',
  })
  max_pixels!: number | null;
  @ApiProperty({ example: ['thumb', 'large'], description: 'The image variants each image of the field gets' })
  variants!: string[];

  static from(name: string, rules: FileFieldRules): FileFieldRulesDto {
    return Object.assign(new FileFieldRulesDto(), {
      name,
      multi: rules.multi,
      accept: rules.accept,
      refused: rules.refused,
      max_size: rules.maxSize,
      max_count: rules.maxCount,
      max_files_per_request: rules.maxFilesPerRequest,
      max_pixels: rules.maxPixels,
      variants: rules.variants,
    });
  }
}

/** An entity type that files attach to, and its file fields. */
@ApiSchema({ name: 'AttachmentType' })
export class AttachmentTypeDto {
  @ApiProperty({ example: 'product', description: 'The `{attachmentType}` of the file routes' })
  attachment_type!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '/products',
    description: 'Where the entities of this type are listed; null when the application does not say',
  })
  collection_path!: string | null;
  @ApiProperty({ type: [FileFieldRulesDto] }) fields!: FileFieldRulesDto[];

  static from(view: AttachmentTypeView): AttachmentTypeDto {
    return Object.assign(new AttachmentTypeDto(), {
      attachment_type: view.type,
      collection_path: view.collectionPath ?? null,
      fields: view.fields.map((field) => FileFieldRulesDto.from(field.name, field.rules)),
    });
  }
}
