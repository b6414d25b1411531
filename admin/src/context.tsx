import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiClient } from './api/client';
import type { Session, SessionState } from './auth/session';
import type { Uploader } from './api/uploads';

export interface AdminServices {
  api: ApiClient;
  session: Session;
  uploader: Uploader;
}

const Services = createContext<AdminServices | null>(null);

export function AdminServicesProvider({ services, children }: { services: AdminServices; children: ReactNode }) {
  return <Services.Provider value={services}>{children}</Services.Provider>;
}

export function useServices(): AdminServices {
  const services = useContext(Services);
  if (!services) throw new Error('useServices outside AdminServicesProvider');
  return services;
}

export const useApi = (): ApiClient => useServices().api;

/** The session's state, re-rendering on sign-in, sign-out and expiry. */
export function useSessionState(): SessionState {
  const { session } = useServices();
  return useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.state,
  );
}
