import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmDialog } from './ui';

/**
 * Asks before deleting `target` (open while there is one). On confirmation it calls `remove`, then `onDeleted`, then
 * refreshes the queries under `refresh` and closes; a refusal stays shown in the dialog until it is cancelled.
 */
export function DeleteDialog<T>({
  title,
  target,
  remove,
  refresh,
  onDeleted,
  onClose,
  children,
}: {
  title: string;
  target: T | undefined;
  remove: (target: T) => Promise<unknown>;
  refresh: QueryKey;
  onDeleted?: (target: T) => unknown;
  onClose: () => void;
  /** What deleting it means, in a sentence or two. */
  children: ReactNode;
}) {
  const queries = useQueryClient();
  const deletion = useMutation({
    mutationFn: remove,
    onSuccess: async (_answer, deleted) => {
      await onDeleted?.(deleted);
      await queries.invalidateQueries({ queryKey: refresh });
      close();
    },
  });
  const close = () => {
    deletion.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      title={title}
      open={target !== undefined}
      confirmLabel="Delete"
      busy={deletion.isPending}
      error={deletion.error}
      onConfirm={() => target !== undefined && deletion.mutate(target)}
      onCancel={close}
    >
      {children}
    </ConfirmDialog>
  );
}
