import {
  AttachmentType,
  FileField,
  getAttachmentType,
  getCollectionPath,
  getFileFields,
} from './file-field.decorator.js';

describe('@FileField()', () => {
  class Base {
    @FileField() cover?: unknown;
    @FileField({ multi: true }) gallery?: unknown;
  }

  @AttachmentType('special-item')
  class Child extends Base {
    @FileField({ multi: true }) override cover?: unknown;
    @FileField() manual?: unknown;
  }

  it('records single and multi fields, single by default', () => {
    expect(getFileFields(Base)).toEqual([
      { name: 'cover', multi: false },
      { name: 'gallery', multi: true },
    ]);
  });

  it('inherits fields and lets a subclass redeclare one without touching the parent', () => {
    expect(getFileFields(Child)).toEqual([
      { name: 'cover', multi: true },
      { name: 'gallery', multi: true },
      { name: 'manual', multi: false },
    ]);
    expect(getFileFields(Base).find((f) => f.name === 'cover')?.multi).toBe(false);
  });

  it('derives the attachment type from the class name unless @AttachmentType names it', () => {
    expect(getAttachmentType(Base)).toBe('base');
    expect(getAttachmentType(Child)).toBe('special-item');
  });

  it('records where the application lists the entities, when @AttachmentType says', () => {
    @AttachmentType('listed', { collectionPath: '/api/listed-things' })
    class Listed {}
    expect(getCollectionPath(Listed)).toBe('/api/listed-things');
    expect(getCollectionPath(Child)).toBeUndefined();
    expect(() => AttachmentType('x', { collectionPath: 'products' })).toThrow(/collectionPath must be a path/);
    for (const path of ['/a/../b', '/a/.', '/b?c', '/', '//x']) {
      expect(() => AttachmentType('x', { collectionPath: path })).toThrow(/collectionPath must be a path/);
    }
  });

  it('returns no fields for a class without decorators', () => {
    class Plain {}
    expect(getFileFields(Plain)).toEqual([]);
  });

  it('refuses attachment type names that could not appear in a URL segment', () => {
    expect(() => AttachmentType('../etc')).toThrow(/invalid name/);
    expect(() => AttachmentType('Upper')).toThrow(/invalid name/);
  });
});
