import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AttachmentType, FileField, type FileRecordDto } from '@file-fields/nest';

@Entity({ name: 'authors' })
@AttachmentType('author', { collectionPath: '/authors' })
export class Author {
  @ApiProperty({ type: 'integer' })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty({ maxLength: 200, example: 'Ursula K. Le Guin' })
  @Column({ type: 'varchar', length: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiProperty()
  @CreateDateColumn()
  created_at!: Date;

  @FileField({ accept: ['image/*'] })
  portrait?: FileRecordDto | null;
}
