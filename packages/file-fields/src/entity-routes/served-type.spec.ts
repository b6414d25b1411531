import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, validate } from 'class-validator';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AttachmentType } from '../files/fields/file-field.decorator.js';
import { entityRoutesOf } from './served-type.js';

@Entity({ name: 'gauges' })
@AttachmentType('gauge', { collectionPath: '/gauges' })
class Gauge {
  @ApiProperty() @PrimaryGeneratedColumn() id!: number;
  @ApiProperty() @Column({ type: 'integer' }) @IsInt() reading!: number;
  @ApiProperty() @CreateDateColumn() created_at!: Date;
}

@Entity({ name: 'notes' })
@AttachmentType('note', { collectionPath: '/api/notes' })
class Note {
  @ApiProperty() @PrimaryGeneratedColumn() id!: number;
  @ApiProperty() @Column() @IsString() title!: string;
  @ApiProperty() @Column({ type: 'text', nullable: true }) @IsOptional() @IsString() body!: string | null;
  @ApiProperty() @Column({ type: 'integer', default: 0 }) @IsInt() stars!: number;
  @ApiProperty() @CreateDateColumn() created_at!: Date;
  @ApiProperty() @UpdateDateColumn() updated_at!: Date;
}

@Entity({ name: 'unlisted' })
class Unlisted {
  @PrimaryGeneratedColumn() id!: number;
  @Column() @IsString() name!: string;
}

describe('entityRoutesOf', () => {
  it('takes path and label from @AttachmentType, searches the text columns, sorts by them, id and creation', () => {
    const note = entityRoutesOf(Note);
    expect(note).toMatchObject({ path: 'api/notes', label: 'note', entity: Note, searchedIn: 'title or body' });
    expect(note.list).toEqual({
      search: ['title', 'body'],
      sorts: { id: 'id', title: 'title', body: 'body', created_at: 'created_at' },
      defaultSort: 'id',
    });
  });

  it('writes every column but the primary key and the generated times; a create needs what is not optional', async () => {
    const { createDto, updateDto } = entityRoutesOf(Note);
    const refused = async (dto: Type<object>, body: object) =>
      (await validate(plainToInstance(dto, body), { whitelist: true, forbidNonWhitelisted: true }))
        .map((error) => error.property)
        .sort();
    const generated = { id: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
    expect(await refused(createDto, { title: 't', body: null, stars: 1, ...generated })).toEqual([
      'created_at',
      'id',
      'updated_at',
    ]);
    expect(await refused(createDto, {})).toEqual(['stars', 'title']);
    expect(await refused(updateDto, {})).toEqual([]);
    expect(await refused(updateDto, { title: null, body: null })).toEqual(['title']);
  });

  it('searches nothing in a type without text columns, and says so', () => {
    const gauge = entityRoutesOf(Gauge);
    expect(gauge.list.search).toEqual([]);
    expect(gauge.searchedIn).toBe('text (it has none: nothing matches)');
  });

  it('refuses a type without a collectionPath, and keeps what a listed type says instead', () => {
    expect(() => entityRoutesOf(Unlisted)).toThrow(/Unlisted needs a collectionPath/);
    const list = { search: [], sorts: { id: 'id' }, defaultSort: 'id' } as const;
    expect(entityRoutesOf({ type: Note, list }).list).toBe(list);
  });
});
