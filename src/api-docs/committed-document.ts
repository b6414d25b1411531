import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConstantDocument } from '../common/http/constant-document.js';
import { swaggerUiInitScript } from './swagger-ui-page.js';

const FILE_NAME = 'openapi.json';

/**
 * openapi.json at the project's root, looked for upwards from this file: the same from the sources (tests) and from
 * a build (dist/src/common/openapi/, dist-test/<name>/src/common/openapi/). Throws when there is none, so that a
 * build deployed without it fails at start rather than at the first request for the document.
 */
function findCommittedOpenApi(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, FILE_NAME);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) {
      throw new Error(`No ${FILE_NAME} in ${from} or above it: the service serves the API document committed there.`);
    }
  }
}

/**
 * The API document the service serves: openapi.json as committed, which the platform suite checks is what the code
 * declares (and regenerates with UPDATE_OPENAPI=1). Nothing is built at run time: each form (JSON, YAML, Swagger
 * UI's start script, which carries the document) is made once, on the first request for it, and sent as the same
 * bytes with an ETag and a cache lifetime.
 */
export class CommittedOpenApi {
  private json?: ConstantDocument;
  private yaml?: Promise<ConstantDocument>;
  private init?: ConstantDocument;

  constructor(private readonly path = findCommittedOpenApi()) {}

  asJson(): ConstantDocument {
    return (this.json ??= new ConstantDocument(JSON.stringify(this.read())));
  }

  /** js-yaml is loaded for the first request for YAML, not at start. */
  asYaml(): Promise<ConstantDocument> {
    this.yaml ??= import('js-yaml').then(
      ({ dump }) =>
        new ConstantDocument(dump(this.read(), { skipInvalid: true, noRefs: true }), 'text/yaml; charset=utf-8'),
    );
    return this.yaml;
  }

  swaggerUiInit(): ConstantDocument {
    return (this.init ??= new ConstantDocument(
      swaggerUiInitScript(this.asJson().body.toString('utf8')),
      'application/javascript; charset=utf-8',
    ));
  }

  private read(): unknown {
    return JSON.parse(readFileSync(this.path, 'utf8'));
  }
}
