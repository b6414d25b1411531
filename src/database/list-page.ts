import { Brackets, type ObjectLiteral, type Repository } from 'typeorm';

/** A page of a collection: the envelope every list of the API answers. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** What a client asks of a list (see `listQueryOf`): a page, a search, an order. */
export interface PageQuery {
  limit: number;
  offset: number;
  q?: string;
  /** A key of the list's `sorts`, descending with a leading `-`. */
  sort?: string;
}

/** How one list is searched and ordered, by entity property names. */
export interface ListSpec<T> {
  /** What `q` is looked for in: a case-insensitive substring of any of these. */
  search: ReadonlyArray<keyof T & string>;
  /** Sort keys as the API names them, and the property each orders by; ties are broken by id. */
  sorts: Readonly<Record<string, keyof T & string>>;
  /** Today's order, when the client asks none. */
  defaultSort: string;
}

/** Every `sort` value a list accepts: each key, ascending and descending. */
export function sortValuesOf(spec: ListSpec<never>): string[] {
  return Object.keys(spec.sorts).flatMap((key) => [key, `-${key}`]);
}

/** `%`, `_` and `\` match themselves: `q=%` looks for a percent sign. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * One page of `repository`'s rows matching `query.q`, in `query.sort` order then by id (the same direction, so that
 * an index on (column, id) serves both), and how many match. Text columns are compared and ordered in lower case,
 * so that "apple" and "Banana" sort as a person expects on SQLite and PostgreSQL alike.
 */
export async function findPage<T extends ObjectLiteral>(
  repository: Repository<T>,
  query: PageQuery,
  spec: ListSpec<T>,
): Promise<Page<T>> {
  const { limit, offset } = query;
  const builder = repository.createQueryBuilder('row');
  const columnOf = (property: string) => {
    const column = repository.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${repository.metadata.name} has no property ${property}`);
    const name = `row.${column.propertyPath}`;
    return isText(column.type) ? `LOWER(${name})` : name;
  };
  const q = query.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q.toLowerCase())}%`;
    const anyOf = new Brackets((where) => {
      for (const property of spec.search) where.orWhere(`${columnOf(property)} LIKE :pattern ESCAPE '\\'`);
    });
    builder.where(anyOf, { pattern });
  }
  const sort = query.sort ?? spec.defaultSort;
  const direction = sort.startsWith('-') ? 'DESC' : 'ASC';
  const property = spec.sorts[sort.replace(/^-/, '')];
  if (!property) throw new Error(`Unknown sort "${sort}"`);
  if (property !== 'id') {
    // Empty values last on both databases (SQLite puts them first, PostgreSQL last by default); only where a column
    // can be empty, so that an index on a required column still serves the descending order.
    const nullable = repository.metadata.findColumnWithPropertyName(property)?.isNullable;
    builder.orderBy(columnOf(property), direction, nullable ? 'NULLS LAST' : undefined);
  }
  builder.addOrderBy('row.id', direction).limit(limit).offset(offset);
  const items = await builder.getMany();
  // A page short of its limit, not past the end, is the last one: its items give the total without a count.
  const last = items.length < limit && (items.length > 0 || offset === 0);
  const total = last ? offset + items.length : await builder.getCount();
  return { items, total, limit, offset };
}

function isText(type: unknown): boolean {
  return type === String || type === 'varchar' || type === 'text' || type === 'character varying';
}
