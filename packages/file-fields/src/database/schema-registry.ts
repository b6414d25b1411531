/** What one feature brings to the database: its entities and the migrations that create their tables. */
export interface FeatureSchema {
  entities: Function[];
  migrations?: Function[];
}

const entities = new Set<Function>();
const migrations = new Set<Function>();

/**
 * Collects every feature's entities and migrations, so the DataSource needs no central list that each feature must
 * edit. Features register while their module files load (FileFieldsModule.forFeature does, and a host's own modules
 * may), before a DataSource that reads it is built; a migration generator loads the application module for the same
 * reason.
 */
export const schemaRegistry = {
  register(schema: FeatureSchema): void {
    schema.entities.forEach((entity) => entities.add(entity));
    schema.migrations?.forEach((migration) => migrations.add(migration));
  },
  entities(): Function[] {
    return [...entities];
  },
  /** Every registered migration, ordered by the timestamp that ends its class name. */
  migrations(): Function[] {
    return [...migrations].sort((a, b) => timestampOf(a) - timestampOf(b));
  },
};

function timestampOf(migration: Function): number {
  return Number(/\d{13}$/.exec(migration.name)?.[0] ?? 0);
}
