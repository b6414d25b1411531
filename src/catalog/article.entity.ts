import { ApiProperty } from '@nestjs/swagger';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AttachmentType, FileField, type FileRecordDto } from '../files/index.js';

/** Example entity: an article with a thumbnail and ordered attachments. */
@Entity({ name: 'articles' })
@AttachmentType('article', { collectionPath: '/articles' })
export class Article {
  @ApiProperty({ type: 'integer', example: 7 })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty({ maxLength: 300, example: 'Release notes' })
  @Column({ type: 'varchar', length: 300 })
  title!: string;

  @ApiProperty()
  @CreateDateColumn()
  created_at!: Date;

  @ApiProperty()
  @UpdateDateColumn()
  updated_at!: Date;

  @FileField({ accept: ['image/*'] })
  thumbnail?: FileRecordDto | null;

  /** Any type that is not refused by default (HTML, SVG, executables). */
  @FileField({ multi: true, maxCount: 10 })
  attachments?: FileRecordDto[];
}
