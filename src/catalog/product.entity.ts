import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AttachmentType, FileField, type FileRecordDto } from '@file-fields/nest';

/** A square thumbnail, cropped to fill it. */
const THUMB = { width: 200, height: 200, fit: 'cover' } as const;
/** A large WebP within 1600 pixels of width, proportions kept. */
const LARGE = { width: 1600, fit: 'inside', format: 'webp' } as const;

/** Example entity: a product with a cover image and an ordered gallery, both with image variants. */
@Entity({ name: 'products' })
// The list's orders (see CatalogListIndexes1763800014000); by lower(name), which only the migration can write.
@Index('ix_products_name', { synchronize: false })
@Index('ix_products_created_at', ['created_at', 'id'])
@AttachmentType('product', { collectionPath: '/products' })
export class Product {
  @ApiProperty({ title: 'ID', type: 'integer', example: 7 })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty({ title: 'Name', description: 'What the product is called', maxLength: 200, example: 'Desk lamp' })
  @Column({ type: 'varchar', length: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiProperty({
    title: 'Description',
    description: 'What a customer reads about the product',
    type: String,
    nullable: true,
    maxLength: 10000,
  })
  @Column({ type: 'text', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description!: string | null;

  @ApiProperty({ title: 'Created' })
  @CreateDateColumn()
  created_at!: Date;

  @ApiProperty({ title: 'Updated' })
  @UpdateDateColumn()
  updated_at!: Date;

  @FileField({
    title: 'Cover image',
    description: 'The picture that shows the product in lists.',
    accept: ['image/*'],
    maxSize: 5 * 1024 * 1024,
    variants: { thumb: THUMB, large: LARGE },
  })
  cover?: FileRecordDto | null;

  @FileField({
    title: 'Gallery',
    description: 'More pictures and documents, in the order they are shown.',
    multi: true,
    accept: ['image/*', 'application/pdf'],
    maxCount: 30,
    variants: { thumb: THUMB },
  })
  gallery?: FileRecordDto[];
}
