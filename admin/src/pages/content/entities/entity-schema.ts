import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../api/problems';
import type { AttachmentTypeInfo } from '../../../content-types';
import { collectionPathOf } from './entity-api';

/*
 * What the forms and headings of a content type say comes from the service's own OpenAPI document, read once at run
 * time: a type a developer adds (an entity, its DTOs, its routes) gets its labels and form fields without a change
 * here. The document names the create and update bodies of each collection and the entity each answers.
 */

/** A property as people see it: its schema title (else its name in words) and description. */
export interface Label {
  title: string;
  description?: string;
}

/** One property of a create or update body the form can edit. */
export interface FormField extends Label {
  name: string;
  kind: 'text' | 'long-text' | 'number' | 'boolean';
  required: boolean;
  nullable: boolean;
  maxLength?: number;
}

export interface EntitySchema {
  /** Every property of the entity, file fields included, by name. */
  labels: Record<string, Label>;
  /** The body of POST <collection>; empty when the document does not describe it. */
  create: FormField[];
  /** The body of PATCH <collection>/{id}. */
  update: FormField[];
}

interface Schema {
  $ref?: string;
  type?: string;
  title?: string;
  description?: string;
  maxLength?: number;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation | undefined> | undefined>;
  components?: { schemas?: Record<string, Schema> };
}

/** The service's OpenAPI document (public, same origin), fetched once per page load. */
export function useApiDocument() {
  return useQuery({
    queryKey: ['openapi-document'],
    queryFn: async (): Promise<OpenApiDocument> => {
      const response = await fetch(new Request(new URL('/api/docs-json', globalThis.location.origin)));
      if (!response.ok) throw new ApiError(response.status, undefined);
      return (await response.json()) as OpenApiDocument;
    },
    staleTime: Infinity,
  });
}

/** The labels and form fields of a type; from names alone when there is no document. */
export function entitySchemaOf(document: OpenApiDocument | undefined, type: AttachmentTypeInfo): EntitySchema {
  const path = collectionPathOf(type);
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? document?.components?.schemas?.[schema.$ref.split('/').pop() ?? ''] : schema;
  const jsonOf = (part: { content?: Record<string, { schema?: Schema }> } | undefined) =>
    resolve(part?.content?.['application/json']?.schema);
  const item = document?.paths?.[`${path}/{id}`];
  const entity = jsonOf(item?.get?.responses?.['200']);
  const labels: Record<string, Label> = {};
  for (const [name, property] of Object.entries(entity?.properties ?? {})) labels[name] = labelOf(name, property);
  for (const field of type.fields) {
    const label = labels[field.name] ?? labelOf(field.name, {});
    // A file field's description ends with the rules the page already shows as a list.
    labels[field.name] = { ...label, description: label.description?.split(/\s*File field \(/)[0] || undefined };
  }
  const create = formFieldsOf(jsonOf(document?.paths?.[path]?.post?.requestBody));
  // A change may leave out what a new entity needs, but not empty it: such a property is not optional to people.
  const needed = new Set(create.filter((field) => field.required && !field.nullable).map((field) => field.name));
  const update = formFieldsOf(jsonOf(item?.patch?.requestBody)).map((field) => ({
    ...field,
    required: field.required || needed.has(field.name),
  }));
  return { labels, create, update };
}

/** "created_at" → "Created at". */
export const nameInWords = (name: string) => {
  const words = name.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
};

const labelOf = (name: string, property: Schema): Label => ({
  title: property.title ?? nameInWords(name),
  description: property.description,
});

function formFieldsOf(body: Schema | undefined): FormField[] {
  const required = new Set(body?.required ?? []);
  return Object.entries(body?.properties ?? {}).flatMap(([name, property]): FormField[] => {
    const kind = kindOf(property);
    if (!kind) return [];
    return [
      {
        ...labelOf(name, property),
        name,
        kind,
        required: required.has(name),
        nullable: property.nullable === true,
        maxLength: property.maxLength,
      },
    ];
  });
}

/** Long strings get a text area; objects and arrays are not edited here. */
function kindOf(property: Schema): FormField['kind'] | undefined {
  switch (property.type) {
    case 'string':
      return (property.maxLength ?? Infinity) > 1000 ? 'long-text' : 'text';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}
