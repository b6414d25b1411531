import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer, useRef, useState } from 'react';
import type { UploadListener, UploadQueue } from '../../../../api/uploads';
import { messageOf } from '../../../../api/problems';
import type { FileFieldRules } from '../../../../content-types';
import { useServices } from '../../../../context';
import { contentKey } from '../../entities/entity-api';
import { checkFiles } from '../file-rules';
import { uploadsAfter, type UploadItem } from './upload-state';

/**
 * Uploads to one field of one entity: the files that meet the field's rules are queued (a multi field keeps their
 * order), each with its progress, Pause/Resume and Cancel; those the rules refuse become `problems`, those the service
 * refuses keep their row with its answer. The queue opens at the first upload and pauses when the page goes.
 */
export function useUploads(type: string, entityId: number, field: FileFieldRules, held: number, label: string) {
  const { uploader } = useServices();
  const queries = useQueryClient();
  const [items, dispatch] = useReducer(uploadsAfter, []);
  const [problems, setProblems] = useState<string[]>([]);
  const queue = useRef<Promise<UploadQueue> | undefined>(undefined);

  useEffect(() => {
    return () => {
      void queue.current?.then((opened) => opened.close());
      queue.current = undefined;
    };
  }, [uploader, type, entityId, field.name]);

  const listener: UploadListener = {
    progress: (id, sent, total) => dispatch({ type: 'progress', id, sent, total }),
    resuming: (id, offset, total) => dispatch({ type: 'resuming', id, offset, total }),
    failed: (id, error) => dispatch({ type: 'failed', id, error }),
    completed: (id) => {
      dispatch({ type: 'completed', id });
      // The row stays until the field shows the file.
      void queries.invalidateQueries({ queryKey: contentKey(type) }).finally(() => dispatch({ type: 'removed', id }));
    },
  };
  const open = () =>
    (queue.current ??= uploader({ attachmentType: type, attachmentId: entityId, fieldName: field.name }, listener));

  async function upload(files: File[]) {
    const underWay = items.filter((item) => item.status !== 'failed').length;
    const { accepted, refusals } = checkFiles(field, files, held + underWay, label);
    setProblems(refusals);
    if (accepted.length === 0) return;
    let opened: UploadQueue;
    try {
      opened = await open();
    } catch (error) {
      queue.current = undefined;
      setProblems((all) => [...all, `Uploads could not start. ${messageOf(error)}`]);
      return;
    }
    for (const file of accepted) {
      try {
        dispatch({ type: 'added', id: opened.add(file), name: file.name });
      } catch (error) {
        setProblems((all) => [...all, `${file.name} was not uploaded. ${messageOf(error)}`]);
      }
    }
  }

  /** The buttons of an upload's row. */
  const control = (item: UploadItem, action: 'pause' | 'resume' | 'retry' | 'cancel') => {
    void queue.current?.then((opened) => {
      opened[action](item.id);
      const events = { pause: 'paused', resume: 'resumed', retry: 'retried', cancel: 'removed' } as const;
      dispatch({ type: events[action], id: item.id });
    });
  };

  return { items, problems, upload: (files: File[]) => void upload(files), control };
}
