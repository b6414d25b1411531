import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { FileField, type FileRecordDto } from '../files/index.js';

/** Example entity: a product with a cover image and an ordered gallery. */
@Entity({ name: 'products' })
export class Product {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @CreateDateColumn()
  created_at!: Date;

  @UpdateDateColumn()
  updated_at!: Date;

  @FileField({ accept: ['image/*'], maxSize: 5 * 1024 * 1024 })
  cover?: FileRecordDto | null;

  @FileField({ multi: true, accept: ['image/*', 'application/pdf'], maxCount: 30 })
  gallery?: FileRecordDto[];
}
