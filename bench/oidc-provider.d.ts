/** The part of oidc-provider's API the benchmark peer uses (the package ships no types). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    /** A request listener for node:http. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
