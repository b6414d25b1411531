import { AttachmentType, FileField, getAttachmentType, getFileFields } from './file-field.decorator.js';

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

  it('returns no fields for a class without decorators', () => {
    class Plain {}
    expect(getFileFields(Plain)).toEqual([]);
  });

  it('refuses attachment type names that could not appear in a URL segment', () => {
    expect(() => AttachmentType('../etc')).toThrow(/invalid name/);
    expect(() => AttachmentType('Upper')).toThrow(/invalid name/);
  });
});
