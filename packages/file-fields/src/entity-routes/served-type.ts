import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema, PartialType, PickType } from '@nestjs/swagger';
import { getMetadataStorage, IS_OPTIONAL } from 'class-validator';
import { getMetadataArgsStorage } from 'typeorm';
import type { ListSpec } from '../database/list-page.js';
import { getAttachmentType, getCollectionPath } from '../files/fields/file-field.decorator.js';
import type { EntityRoutes } from './entity-routes.controller.js';
import type { ServedEntity } from './entity.service.js';

/**
 * What a type listed in `FileFieldsModule.forFeature` may say instead of what its entity implies: the request bodies
 * and how its list is searched and ordered.
 */
export interface ServedTypeOptions {
  type: Type<ServedEntity>;
  createDto?: Type<object>;
  updateDto?: Type<object>;
  list?: ListSpec<never>;
}

/** An entity class alone (everything from its decorators), or with what it says otherwise. */
export type ServedType = Type<ServedEntity> | ServedTypeOptions;

/** The column types `q` searches in and `sort` may name, besides `id` and the creation time. */
const TEXT_TYPES = new Set<unknown>([String, 'varchar', 'text', 'character varying', 'nvarchar']);

/**
 * The routes of one served type, from its entity: the path and label of its `@AttachmentType()`, the request bodies
 * from its columns (their `@ApiProperty()` and class-validator decorators; `id` and the generated times left out), a
 * list searched in its text columns and ordered by them, by `id` or by its creation time.
 */
export function entityRoutesOf(listed: ServedType): EntityRoutes {
  const options: ServedTypeOptions = typeof listed === 'function' ? { type: listed } : listed;
  const { type } = options;
  const collectionPath = getCollectionPath(type);
  if (collectionPath === undefined) {
    throw new Error(
      `FileFieldsModule.forFeature: ${type.name} needs a collectionPath, e.g. @AttachmentType('author', { collectionPath: '/authors' })`,
    );
  }
  const label = getAttachmentType(type);
  const one = `${label[0].toUpperCase()}${label.slice(1)}`;
  const columns = columnsOf(type);
  const list = options.list ?? listOf(columns);
  const written = writtenOf(type, columns);
  return {
    path: collectionPath.slice(1),
    label,
    service: Symbol(`${one}Service`),
    entity: type,
    createDto: options.createDto ?? createDtoOf(type, one, written),
    updateDto: options.updateDto ?? updateDtoOf(type, one, written),
    list,
    searchedIn: list.search.length > 0 ? list.search.join(' or ') : 'text (it has none: nothing matches)',
  };
}

interface ServedColumn {
  property: string;
  written: boolean;
  text: boolean;
  created: boolean;
}

function columnsOf(type: Type<ServedEntity>): ServedColumn[] {
  const storage = getMetadataArgsStorage();
  return storage.filterColumns(type).map((column) => {
    const property = column.propertyName;
    const declared: unknown =
      column.options.type ?? Reflect.getMetadata('design:type', type.prototype as object, property);
    return {
      property,
      written: column.mode === 'regular' && !column.options.primary,
      text: column.mode === 'regular' && TEXT_TYPES.has(declared),
      created: column.mode === 'createDate',
    };
  });
}

function listOf(columns: ServedColumn[]): ListSpec<never> {
  const text = columns.filter((column) => column.text).map((column) => column.property);
  const created = columns.filter((column) => column.created).map((column) => column.property);
  const sorts = Object.fromEntries(['id', ...text, ...created].map((property) => [property, property]));
  return { search: text, sorts, defaultSort: 'id' };
}

function writtenOf(type: Type<ServedEntity>, columns: ServedColumn[]): Array<keyof ServedEntity> {
  const written = columns.filter((column) => column.written).map((column) => column.property);
  if (written.length === 0)
    throw new Error(`FileFieldsModule.forFeature: ${type.name} has no column a client can write`);
  return written as Array<keyof ServedEntity>;
}

/**
 * What a body must hold is what the validators require (all but `@IsOptional()` columns), whatever the entity's
 * `@ApiProperty()` says: an answer always holds a nullable column, a request may leave it out.
 */
function createDtoOf(type: Type<ServedEntity>, one: string, written: Array<keyof ServedEntity>): Type<object> {
  const Picked = PickType(type, written);
  const optional = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(type, '', true, false)
      .filter((validation) => validation.name === IS_OPTIONAL)
      .map((validation) => validation.propertyName),
  );
  for (const property of written)
    ApiProperty({ required: !optional.has(property) })(Picked.prototype as object, property);
  @ApiSchema({ name: `Create${one}` })
  class CreateDto extends Picked {}
  return CreateDto;
}

/** Every property may be left out; a `null` is still checked, so only a column whose validators allow it takes it. */
function updateDtoOf(type: Type<ServedEntity>, one: string, written: Array<keyof ServedEntity>): Type<object> {
  @ApiSchema({ name: `Update${one}` })
  class UpdateDto extends PartialType(PickType(type, written), { skipNullProperties: false }) {}
  return UpdateDto;
}
