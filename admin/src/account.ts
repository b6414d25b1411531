import { useMutation, useQuery } from '@tanstack/react-query';
import { unwrap, type Schemas } from './api/client';
import { useApi } from './context';

/** Who is signed in and what their token grants (GET /api/me). */
export type Me = Schemas['Me'];
/** One permission a role may hold, as the service checks it (GET /api/permissions). */
export type CatalogedPermission = Schemas['Permission'];
export type ChangeOwnPassword = Schemas['ChangeOwnPassword'];

/** The signed-in account (the layout shows its name from the same query). */
export function useMe() {
  const api = useApi();
  return useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/api/me')) });
}

/** What a role may hold, as the service checks it. */
export function usePermissionCatalog() {
  const api = useApi();
  return useQuery({
    queryKey: ['permissions'],
    queryFn: () => unwrap(api.GET('/api/permissions')),
    staleTime: 5 * 60_000,
  });
}

/** The signed-in user changes their own password (the service keeps this sign-in and ends the others). */
export function useChangeOwnPassword() {
  const api = useApi();
  return useMutation({
    mutationFn: async (body: ChangeOwnPassword) => {
      await unwrap(api.PUT('/api/me/password', { body }));
    },
  });
}
