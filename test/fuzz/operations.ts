import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A JSON Schema node of the document (OpenAPI 3.0 dialect: `nullable`, `example`). */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  example?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  id: string;
  method: string;
  /** The path template, e.g. `/products/{id}`. */
  path: string;
  parameters: Parameter[];
  /** Media type → schema of the request body; empty when the operation takes none. */
  bodies: Record<string, Schema>;
  bodyRequired: boolean;
  /** Whether a request without credentials may succeed. */
  anonymous: boolean;
  /** The permissions the operation names (`oauth2` scopes); empty: any authenticated principal. */
  scopes: string[];
  /** An OAuth 2.0 endpoint: its errors are RFC 6749 bodies (or the sign-in page), not problem documents. */
  oauth: boolean;
}

export interface Document {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}

export function loadDocument(): Document {
  return JSON.parse(readFileSync(resolve(process.cwd(), 'openapi.json'), 'utf8')) as Document;
}

/** Follows `$ref`s (local ones: the document has no others). */
export function deref(document: Document, schema: Schema): Schema {
  let node = schema;
  for (let hops = 0; node.$ref && hops < 20; hops++) {
    const path = node.$ref.replace(/^#\//, '').split('/');
    node = path.reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key], document) as Schema;
  }
  return node;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];
const OAUTH_PATHS = /^\/api\/oauth\/(?:token|revoke|introspect|authorize)$/;

/** Every operation of the document, in its order. */
export function operationsOf(document: Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as
        | {
            operationId?: string;
            parameters?: Parameter[];
            requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
            security?: Array<Record<string, string[]>>;
          }
        | undefined;
      if (!op) continue;
      const parameters = [...shared, ...(op.parameters ?? [])].map((p) => ({
        ...p,
        required: p.required === true || p.in === 'path',
        schema: p.schema ?? {},
      }));
      const bodies = Object.fromEntries(
        Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => [type, media.schema ?? {}]),
      );
      const security = op.security ?? [];
      operations.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        bodies,
        bodyRequired: op.requestBody?.required === true,
        anonymous: security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0),
        scopes: [...new Set(security.flatMap((requirement) => requirement.oauth2 ?? []))],
        oauth: OAUTH_PATHS.test(path),
      });
    }
  }
  return operations;
}
