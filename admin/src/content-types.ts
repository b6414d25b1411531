import { useQuery } from '@tanstack/react-query';
import { unwrap, type Schemas } from './api/client';
import { useApi } from './context';

export type AttachmentTypeInfo = Schemas['AttachmentType'];
/** One file field and the rules an upload to it must meet. */
export type FileFieldRules = Schemas['FileFieldRules'];

/** The attachable entity types the signed-in user may read, with their file fields' rules (GET /files/fields). */
export function useContentTypes() {
  const api = useApi();
  return useQuery({
    queryKey: ['file-fields'],
    queryFn: () => unwrap(api.GET('/files/fields')),
    staleTime: 5 * 60_000,
  });
}

/** "product" → "Products". */
export function pluralLabel(type: string): string {
  const words = type.replace(/[-_]/g, ' ');
  const plural = words.endsWith('y') ? `${words.slice(0, -1)}ies` : words.endsWith('s') ? words : `${words}s`;
  return plural[0].toUpperCase() + plural.slice(1);
}

/** "gift_card" → "Gift card". */
export const singularLabel = (type: string) => {
  const words = type.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
