import type { Handler } from '../../../testing/render';
import { json } from '../../../testing/render';
import type { OpenApiDocument } from './entity-schema';
// The committed document, as the service serves it at /api/docs-json: the tests read the real titles.
import text from '../../../../../openapi.json?raw';

export const API_DOCUMENT = JSON.parse(text) as OpenApiDocument;

/** The fake service's answer to GET /api/docs-json. */
export const apiDocumentRoute: Record<string, Handler> = { 'GET /api/docs-json': () => json(API_DOCUMENT) };
