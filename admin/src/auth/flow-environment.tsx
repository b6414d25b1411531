import createClient from 'openapi-fetch';
import { createContext, useContext } from 'react';
import { unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import type { FlowEnvironment, ServerMetadata } from './authorization-flow';

/** The service's RFC 8414 metadata through the generated client, asked once per page load (again after a failure). */
function metadataLoader(baseUrl = globalThis.location?.origin ?? ''): () => Promise<ServerMetadata> {
  const client = createClient<paths>({ baseUrl });
  let loading: Promise<ServerMetadata> | undefined;
  return () => {
    loading ??= unwrap(client.GET('/.well-known/oauth-authorization-server')).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

let browser: FlowEnvironment | undefined;

/** The tab's own: its sessionStorage, its address, the metadata of the service that served it. */
function browserEnvironment(): FlowEnvironment {
  browser ??= {
    storage: sessionStorage,
    metadata: metadataLoader(),
    location: {
      origin: location.origin,
      assign: (url) => location.assign(url),
      replace: (url) => location.replace(url),
    },
  };
  return browser;
}

const FlowContext = createContext<FlowEnvironment | null>(null);

/** Replaces the browser's storage, address and metadata, for tests. */
export const FlowEnvironmentProvider = FlowContext.Provider;

export function useFlowEnvironment(): FlowEnvironment {
  return useContext(FlowContext) ?? browserEnvironment();
}
