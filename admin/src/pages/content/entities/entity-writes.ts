import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap, type ApiClient } from '../../../api/client';
import type { AttachmentTypeInfo } from '../../../content-types';
import { useApi } from '../../../context';
import { collectionPathOf, contentKey, type Entity } from './entity-api';
import type { FormField } from './entity-schema';

/*
 * As in entity-api.ts: every collection takes the same shapes (a JSON body of its own properties), so the paths are
 * narrowed to the catalog's here, and the body is whatever the document says the type takes.
 */
type Collection = '/products' | '/articles';
type Body = Record<string, string | number | boolean | null>;

/** What a form holds: text for text and number inputs, true/false for checkboxes. */
export type FormValues = Record<string, string | boolean>;

/** The form's values of an entity (empty for a new one). */
export function valuesOf(fields: FormField[], entity?: Entity): FormValues {
  return Object.fromEntries<string | boolean>(
    fields.map((field) => {
      const value = entity?.[field.name];
      if (field.kind === 'boolean') return [field.name, value === true];
      return [field.name, typeof value === 'string' || typeof value === 'number' ? String(value) : ''];
    }),
  );
}

/**
 * The body of a request from a form: a new entity leaves out what is empty (the service then says what is
 * required); a change sends only what changed, an emptied nullable property as null.
 */
export function bodyOf(fields: FormField[], values: FormValues, before?: FormValues): Body {
  const body: Body = {};
  for (const field of fields) {
    const value = values[field.name];
    if (before && value === before[field.name]) continue;
    if (typeof value === 'boolean') body[field.name] = value;
    else if (value === '') {
      if (before) body[field.name] = field.nullable ? null : '';
    } else body[field.name] = field.kind === 'number' ? Number(value) : value;
  }
  return body;
}

const create = (api: ApiClient, type: AttachmentTypeInfo, body: Body): Promise<Entity> =>
  unwrap(api.POST(collectionPathOf(type) as Collection, { body: body as never }));

const update = (api: ApiClient, type: AttachmentTypeInfo, id: number, body: Body): Promise<Entity> =>
  unwrap(
    api.PATCH(`${collectionPathOf(type)}/{id}` as `${Collection}/{id}`, {
      params: { path: { id } },
      body: body as never,
    }),
  );

export const removeEntity = (api: ApiClient, type: AttachmentTypeInfo, id: number) =>
  unwrap(api.DELETE(`${collectionPathOf(type)}/{id}` as `${Collection}/{id}`, { params: { path: { id } } }));

/** POST <collection>, then the type's lists are refetched. */
export function useCreateEntity(type: AttachmentTypeInfo) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => create(api, type, body),
    onSuccess: () => void queries.invalidateQueries({ queryKey: contentKey(type.attachment_type) }),
  });
}

/** PATCH <collection>/{id}, then the type's entities are refetched. */
export function useUpdateEntity(type: AttachmentTypeInfo, id: number) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => update(api, type, id, body),
    onSuccess: () => queries.invalidateQueries({ queryKey: contentKey(type.attachment_type) }),
  });
}
