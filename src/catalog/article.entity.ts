import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AttachmentType, FileField, type FileRecordDto } from '@file-fields/nest';

/** Example entity: an article with a thumbnail and ordered attachments. */
@Entity({ name: 'articles' })
// The list's orders (see CatalogListIndexes1763800014000); by lower(title), which only the migration can write.
@Index('ix_articles_title', { synchronize: false })
@Index('ix_articles_created_at', ['created_at', 'id'])
@AttachmentType('article', { collectionPath: '/articles' })
export class Article {
  @ApiProperty({ title: 'ID', type: 'integer', example: 7 })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty({ title: 'Title', description: 'The headline of the article', maxLength: 300, example: 'Release notes' })
  @Column({ type: 'varchar', length: 300 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  title!: string;

  @ApiProperty({ title: 'Created' })
  @CreateDateColumn()
  created_at!: Date;

  @ApiProperty({ title: 'Updated' })
  @UpdateDateColumn()
  updated_at!: Date;

  @FileField({ title: 'Thumbnail', description: 'The small picture shown next to the title.', accept: ['image/*'] })
  thumbnail?: FileRecordDto | null;

  /** Any type that is not refused by default (HTML, SVG, executables). */
  @FileField({
    title: 'Attachments',
    description: 'Files to download with the article, in their order.',
    multi: true,
    maxCount: 10,
  })
  attachments?: FileRecordDto[];
}
