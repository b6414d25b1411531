import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { RESPONSE_PASSTHROUGH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { getFileFields } from '../fields/file-field.decorator.js';

/** What `@ApiOkResponse()`, `@ApiCreatedResponse()` and `@ApiResponse()` record (@nestjs/swagger's keys). */
const API_RESPONSE = 'swagger/apiResponse';
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const API_MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';
const API_SCHEMA = 'swagger/apiSchema';

/** The part of a response or property declaration read here. */
interface Declared {
  type?: unknown;
  schema?: unknown;
  content?: Record<string, { schema?: unknown } | undefined>;
}

/**
 * Whether a route handler may answer with an entity that has `@FileField()` properties, judged from what it declares
 * (once per handler, at start): its success responses (`@ApiOkResponse({ type })` and the like, on the handler or its
 * controller), followed through arrays, page wrappers and nested properties as their `@ApiProperty()` describe them.
 * A handler that declares no success response may return anything and is judged to; one that writes its response
 * itself (`@Res()` without passthrough) never is. `schemaNames`: the OpenAPI names of the entities with file fields,
 * for responses that name their schema by `$ref`.
 */
export function mayAnswerWithFileFields(
  controller: Function,
  method: string,
  schemaNames: ReadonlySet<string>,
): boolean {
  if (writesItsOwnResponse(controller, method)) return false;
  const handler = (controller.prototype as Record<string, Function>)[method];
  const declared = successResponses(Reflect.getMetadata(API_RESPONSE, handler) as Record<string, Declared> | undefined);
  const onClass = successResponses(
    Reflect.getMetadata(API_RESPONSE, controller) as Record<string, Declared> | undefined,
  );
  const responses = declared.length > 0 ? declared : onClass;
  if (responses.length === 0) return true;
  const reach = new Reach(schemaNames);
  return responses.some((response) => reach.declared(response));
}

/** The 2xx and default responses among those declared. */
function successResponses(responses: Record<string, Declared> | undefined): Declared[] {
  return Object.entries(responses ?? {})
    .filter(([status]) => /^2\d\d$|^2XX$|^default$/i.test(status))
    .map(([, response]) => response);
}

function writesItsOwnResponse(controller: Function, method: string): boolean {
  if (Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, controller, method) === true) return false;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, unknown>;
  const ownResponse = new Set<number>([RouteParamtypes.RESPONSE, RouteParamtypes.NEXT]);
  return Object.keys(args).some((key) => ownResponse.has(Number(key.split(':')[0])));
}

/** Follows declared types and schemas, each class once, to an entity with file fields. */
class Reach {
  private readonly seen = new Set<unknown>();

  constructor(private readonly schemaNames: ReadonlySet<string>) {}

  declared({ type, schema, content }: Declared): boolean {
    return (
      this.type(type) ||
      this.schema(schema) ||
      Object.values(content ?? {}).some((media) => media !== undefined && this.schema(media.schema))
    );
  }

  private type(type: unknown): boolean {
    if (Array.isArray(type)) return type.some((item) => this.type(item));
    if (typeof type === 'string') return this.schemaNames.has(type);
    if (typeof type !== 'function' || this.seen.has(type)) return false;
    this.seen.add(type);
    // `type: () => Entity`, as properties declare classes not defined yet.
    if (!isClass(type)) return this.type((type as () => unknown)());
    if (getFileFields(type).length > 0) return true;
    const prototype = type.prototype as object;
    const properties = (Reflect.getMetadata(API_MODEL_PROPERTIES_ARRAY, prototype) ?? []) as string[];
    return properties.some((name) => {
      const property = Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, name.replace(/^:/, '')) as
        (Declared & Record<string, unknown>) | undefined;
      return property !== undefined && (this.type(property.type) || this.schema(property));
    });
  }

  /** An OpenAPI schema: its `$ref`s and the schemas it holds. */
  private schema(schema: unknown): boolean {
    if (typeof schema !== 'object' || schema === null || this.seen.has(schema)) return false;
    this.seen.add(schema);
    if (Array.isArray(schema)) return schema.some((item) => this.schema(item));
    const { $ref, items, properties, additionalProperties, oneOf, anyOf, allOf } = schema as Record<string, unknown>;
    if (typeof $ref === 'string' && this.schemaNames.has($ref.slice($ref.lastIndexOf('/') + 1))) return true;
    const nested: unknown[] = typeof properties === 'object' && properties !== null ? Object.values(properties) : [];
    return [items, additionalProperties, oneOf, anyOf, allOf, ...nested].some((part) => this.schema(part));
  }
}

/** A class (as opposed to an arrow function returning one). */
function isClass(value: Function): boolean {
  const prototype = value.prototype as object | undefined;
  return prototype !== undefined && prototype.constructor === value;
}

/** The OpenAPI name of an entity class: its `@ApiSchema({ name })`, else its class name. */
export function schemaNameOf(target: Function): string {
  return (Reflect.getMetadata(API_SCHEMA, target) as { name?: string } | undefined)?.name ?? target.name;
}
