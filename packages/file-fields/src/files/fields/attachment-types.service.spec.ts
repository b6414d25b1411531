import { DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AttachmentTypes } from './attachment-types.service.js';
import { AttachmentType, FileField } from './file-field.decorator.js';
import { FileFieldRegistry } from './file-field.registry.js';
import { fileFieldRules, MAX_FILES_PER_REQUEST } from './file-field-rules.js';
import { resolveFileFieldsOptions } from './file-fields.options.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { principal } from '../testing/file-fixtures.js';
import { REFUSED_BY_DEFAULT } from './accept-policy.js';

const MIB = 1024 * 1024;

@Entity()
@AttachmentType('widget', { collectionPath: '/api/widgets' })
class Widget {
  @PrimaryGeneratedColumn() id!: number;
  @FileField({ accept: ['image/png', 'image/svg+xml'], maxSize: 2 * MIB, variants: { small: { width: 10 } } })
  icon?: unknown;
  @FileField({ multi: true, maxCount: 5 }) manuals?: unknown;
}

@Entity()
class Gadget {
  @PrimaryGeneratedColumn() id!: number;
  @FileField({ multi: true, maxSize: 100 * MIB, maxPixels: 1000 }) photos?: unknown;
}

describe('fileFieldRules', () => {
  it('applies the application maximum and the default refusals', () => {
    expect(fileFieldRules({ name: 'photos', multi: true, maxSize: 100 * MIB, maxPixels: 1000 }, 8 * MIB)).toEqual({
      multi: true,
      accept: ['*/*'],
      refused: REFUSED_BY_DEFAULT,
      maxSize: 8 * MIB,
      maxCount: null,
      maxFilesPerRequest: MAX_FILES_PER_REQUEST,
      maxPixels: 1000,
      variants: [],
    });
  });

  it('does not refuse a type the field names exactly, and bounds a request by the maxCount of the field', () => {
    const icon = { name: 'icon', multi: false, accept: ['image/svg+xml'], variants: { small: { width: 10 } } };
    const rules = fileFieldRules(icon, 8 * MIB);
    expect(rules.refused).not.toContain('image/svg+xml');
    expect(rules.refused).toContain('text/html');
    expect(rules).toMatchObject({ maxCount: 1, maxFilesPerRequest: 1, maxPixels: 100_000_000, variants: ['small'] });
    expect(fileFieldRules({ name: 'few', multi: true, maxCount: 3 }, MIB)).toMatchObject({
      maxCount: 3,
      maxFilesPerRequest: 3,
    });
  });
});

describe('AttachmentTypes', () => {
  let types: AttachmentTypes;

  beforeAll(async () => {
    const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Widget, Gadget] });
    await dataSource.initialize();
    await dataSource.destroy();
    const registry = new FileFieldRegistry(dataSource);
    registry.onModuleInit();
    const options = resolveFileFieldsOptions({ storage: {} as FileStorage, maxFileSize: 8 * MIB });
    types = new AttachmentTypes(registry, options);
  });

  it('lists the types by name, with where they are listed and their fields in declared order', () => {
    const listed = types.readableBy(principal('*'));
    expect(listed.map((type) => [type.type, type.collectionPath])).toEqual([
      ['gadget', undefined],
      ['widget', '/api/widgets'],
    ]);
    expect(listed[1].fields.map((field) => field.name)).toEqual(['icon', 'manuals']);
    expect(listed[1].fields[0].rules).toMatchObject({ maxSize: 2 * MIB, accept: ['image/png', 'image/svg+xml'] });
  });

  it('lists only the types whose files the principal may read', () => {
    expect(types.readableBy(principal('widget:read', 'gadget:write')).map((type) => type.type)).toEqual(['widget']);
    expect(types.readableBy(principal())).toEqual([]);
  });

  it('declares read and write of every type for the permission catalog', () => {
    expect(types.permissionUses()).toEqual(
      expect.arrayContaining([
        { permission: 'widget:read', subject: 'widget files' },
        { permission: 'widget:write', subject: 'widget files' },
        { permission: 'gadget:read', subject: 'gadget files' },
        { permission: 'gadget:write', subject: 'gadget files' },
      ]),
    );
    expect(types.permissionUses()).toHaveLength(4);
  });
});
