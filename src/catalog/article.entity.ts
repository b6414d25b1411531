import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { FileField, type FileRecordDto } from '../files/index.js';

/** Example entity: an article with a thumbnail and ordered attachments. */
@Entity({ name: 'articles' })
export class Article {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 300 })
  title!: string;

  @CreateDateColumn()
  created_at!: Date;

  @UpdateDateColumn()
  updated_at!: Date;

  @FileField({ accept: ['image/*'] })
  thumbnail?: FileRecordDto | null;

  /** Any type that is not refused by default (HTML, SVG, executables). */
  @FileField({ multi: true, maxCount: 10 })
  attachments?: FileRecordDto[];
}
