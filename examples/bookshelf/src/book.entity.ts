import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AttachmentType, FileField, type FileRecordDto } from '@file-fields/nest';

@Entity({ name: 'books' })
@AttachmentType('book', { collectionPath: '/books' })
export class Book {
  @ApiProperty({ type: 'integer' })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty({ maxLength: 300, example: 'The Dispossessed' })
  @Column({ type: 'varchar', length: 300 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  title!: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 1974 })
  @Column({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  year!: number | null;

  @ApiProperty()
  @CreateDateColumn()
  created_at!: Date;

  @FileField({ accept: ['image/*'] })
  cover?: FileRecordDto | null;

  @FileField({ multi: true, accept: ['image/*', 'application/pdf'] })
  samples?: FileRecordDto[];
}
