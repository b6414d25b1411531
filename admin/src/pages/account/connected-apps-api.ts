import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap, type Schemas } from '../../api/client';
import { useApi } from '../../context';

/** An application the signed-in user allowed to act for them, and what they allowed (GET /api/me/grants). */
export type Grant = Schemas['Grant'];

const GRANTS_KEY = ['me', 'grants'];
/** Like every list of the interface. */
const GRANTS_PAGE_SIZE = 20;

export function useGrants(offset: number) {
  const api = useApi();
  return useQuery({
    queryKey: [...GRANTS_KEY, offset],
    queryFn: () => unwrap(api.GET('/api/me/grants', { params: { query: { limit: GRANTS_PAGE_SIZE, offset } } })),
  });
}

/** Ends the consent and every sign-in the user made at that application. */
export function useRevokeGrant() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) =>
      unwrap(api.DELETE('/api/me/grants/{clientId}', { params: { path: { clientId } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: GRANTS_KEY }),
  });
}
