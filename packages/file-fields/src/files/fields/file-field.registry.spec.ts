import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { FileField } from './file-field.decorator.js';
import { FileFieldRegistry } from './file-field.registry.js';

@Entity()
class Gadget {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @FileField() photo?: unknown;
  @FileField({ multi: true }) manuals?: unknown;
}

@Entity()
class Note {
  @PrimaryGeneratedColumn() id!: number;
}

@Entity()
class Clash {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ nullable: true }) @FileField() photo?: string;
}

async function registryFor(...entities: Function[]): Promise<FileFieldRegistry> {
  const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities });
  await dataSource.initialize();
  await dataSource.destroy();
  const registry = new FileFieldRegistry(dataSource);
  registry.onModuleInit();
  return registry;
}

describe('FileFieldRegistry', () => {
  it('maps attachment types to entities with file fields, ignoring entities without any', async () => {
    const registry = await registryFor(Gadget, Note);
    expect(registry.size).toBe(1);
    const gadget = registry.get('gadget');
    expect(gadget?.target).toBe(Gadget);
    expect([...gadget!.fields.values()]).toEqual([
      { name: 'photo', multi: false },
      { name: 'manuals', multi: true },
    ]);
    expect(registry.get('note')).toBeUndefined();
  });

  it('recognises instances of registered entities and their subclasses', async () => {
    const registry = await registryFor(Gadget);
    class SpecialGadget extends Gadget {}
    expect(registry.forInstance(new Gadget())?.type).toBe('gadget');
    expect(registry.forInstance(new SpecialGadget())?.type).toBe('gadget');
    expect(registry.forInstance({ id: 1 })).toBeUndefined();
    expect(registry.forClass(SpecialGadget)?.type).toBe('gadget');
    expect(registry.forClass(class Unrelated {})).toBeUndefined();
  });

  it('refuses a file field that is also a database column', async () => {
    await expect(registryFor(Clash)).rejects.toThrow(/must not also be a column/);
  });
});
