import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap, type ApiClient } from '../../../api/client';
import type { paths } from '../../../api/openapi';
import type { FileRecord } from '../../../api/uploads';
import { useApi } from '../../../context';
import { listQuery, type ListParams } from '../../../components/lists/use-list-params';
import type { AttachmentTypeInfo, FileFieldRules } from '../../../content-types';

/** An entity of an attachable type: an id, its own properties and its file fields (FileRecord, FileRecord[]). */
export interface Entity {
  id: number;
  [property: string]: unknown;
}

export interface EntityPage {
  items: Entity[];
  total: number;
  limit: number;
  offset: number;
}

const PAGE_SIZE = 20;

/*
 * The collections are the application's own routes, learnt at run time from GET /files/fields. The generated client
 * types the catalog's; every collection answers the same shapes (a page of entities, one entity), so the paths are
 * narrowed to those here, and only here.
 */
type Collection = '/products' | '/articles';
type FileFieldPath = paths['/files/{attachmentType}/{attachmentId}/{fieldName}/order']['put']['parameters']['path'];

/** Where the entities of a type are listed: what GET /files/fields says, else the type's plural. */
export const collectionPathOf = (type: AttachmentTypeInfo) => type.collection_path ?? `/${type.attachment_type}s`;

const listEntities = async (api: ApiClient, type: AttachmentTypeInfo, params: ListParams): Promise<EntityPage> =>
  entityPageOf(
    await unwrap(
      api.GET(collectionPathOf(type) as Collection, {
        // The sort names the type's own properties (name or title), which the narrowed path type cannot know.
        params: { query: listQuery<never>(params, PAGE_SIZE) },
      }),
    ),
    collectionPathOf(type),
  );

const getEntity = async (api: ApiClient, type: AttachmentTypeInfo, id: number): Promise<Entity> => {
  const path = `${collectionPathOf(type)}/{id}` as `${Collection}/{id}`;
  const entity: unknown = await unwrap(api.GET(path, { params: { path: { id } } }));
  if (isObject(entity) && !Array.isArray(entity)) return entity as Entity;
  throw new Error(
    `GET ${path.replace('{id}', String(id))} must answer the ${type.attachment_type} as one JSON object.`,
  );
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A list route's answer as a page. The catalog's routes answer a page ({ items, total, limit, offset }); a route a
 * developer wrote without paging may answer every entity in an array, shown as one page. Anything else is said in a
 * sentence naming the shape needed, instead of breaking the page.
 */
function entityPageOf(body: unknown, path: string): EntityPage {
  if (Array.isArray(body)) {
    return { items: body as Entity[], total: body.length, limit: Math.max(PAGE_SIZE, body.length), offset: 0 };
  }
  if (isObject(body) && Array.isArray(body.items)) {
    const items = body.items as Entity[];
    const number = (value: unknown, otherwise: number) => (typeof value === 'number' ? value : otherwise);
    return {
      items,
      total: number(body.total, items.length),
      limit: number(body.limit, Math.max(PAGE_SIZE, items.length)),
      offset: number(body.offset, 0),
    };
  }
  const keys = isObject(body) ? Object.keys(body).join(', ') : '';
  const answered = isObject(body)
    ? `an object with ${keys || 'no properties'}`
    : body === null
      ? 'null'
      : `a ${typeof body}`;
  throw new Error(
    `GET ${path} must answer a page { items, total, limit, offset } or an array of entities, ` +
      `but answered ${answered}. See “A new entity type” in docs/file-fields.md.`,
  );
}

const fieldPath = (type: string, id: number, field: string) =>
  ({ attachmentType: type, attachmentId: id, fieldName: field }) as FileFieldPath;

/** Everything cached about the entities of a type (refetched after a change). */
export const contentKey = (type: string) => ['content', type];
const entityKey = (type: string, id: number) => ['content', type, 'entity', id];

export function useEntityPage(type: AttachmentTypeInfo, params: ListParams) {
  const api = useApi();
  return useQuery({
    queryKey: ['content', type.attachment_type, 'page', params],
    queryFn: () => listEntities(api, type, params),
    // The page stays while the next one loads, but not across types.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === type.attachment_type ? previous : undefined,
  });
}

export function useEntity(type: AttachmentTypeInfo, id: number) {
  const api = useApi();
  return useQuery({ queryKey: entityKey(type.attachment_type, id), queryFn: () => getEntity(api, type, id) });
}

/** The files of one field of an entity, in their order. */
export function filesOf(entity: Entity, field: string): FileRecord[] {
  const value = entity[field] as FileRecord | FileRecord[] | null | undefined;
  if (Array.isArray(value)) return value;
  return value ? [value] : [];
}

/** Every file of an entity, field by field. */
export const allFilesOf = (entity: Entity, fields: FileFieldRules[]) =>
  fields.flatMap((field) => filesOf(entity, field.name));

/** What people call an entity: its name or title, else its type and id. */
export function displayNameOf(entity: Entity, type: string): string {
  for (const property of ['name', 'title', 'label']) {
    const value = entity[property];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return `${type} ${entity.id}`;
}

/**
 * Saves a multi field's new order (`ids`: every file id of the field). The page shows the new order at once and
 * goes back to the previous one when the service refuses it.
 */
export function useReorderFiles(type: string, id: number, field: string) {
  const api = useApi();
  const queries = useQueryClient();
  const key = entityKey(type, id);
  return useMutation({
    mutationFn: (ids: number[]) =>
      unwrap(
        api.PUT('/files/{attachmentType}/{attachmentId}/{fieldName}/order', {
          params: { path: fieldPath(type, id, field) },
          body: { ids },
        }),
      ),
    onMutate: async (ids) => {
      await queries.cancelQueries({ queryKey: key });
      const previous = queries.getQueryData<Entity>(key);
      if (previous) queries.setQueryData<Entity>(key, { ...previous, [field]: inOrder(filesOf(previous, field), ids) });
      return { previous };
    },
    onError: (_error, _ids, context) => {
      if (context?.previous) queries.setQueryData(key, context.previous);
    },
    // Not awaited: the outcome (an error, say) shows without waiting for the refetch.
    onSettled: () => void queries.invalidateQueries({ queryKey: contentKey(type) }),
  });
}

const inOrder = (files: FileRecord[], ids: number[]) =>
  ids.flatMap((fileId, index) => {
    const file = files.find((candidate) => candidate.id === fileId);
    return file ? [{ ...file, sort_order: index }] : [];
  });
