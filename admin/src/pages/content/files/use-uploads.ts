import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { messageOf } from '../../../api/problems';
import { useServices } from '../../../context';
import type { FileFieldRules } from '../../../content-types';
import { contentKey } from '../entities/entity-api';
import { checkFiles } from './file-rules';

export interface UploadInProgress {
  key: number;
  name: string;
  /** Sent so far, 0 to 1. */
  fraction: number;
}

/**
 * Uploads to one field of one entity: the files that meet the field's rules go one after another (a multi field
 * keeps their order), each with its progress; the others, and those the service refuses, become `problems`.
 */
export function useUploads(type: string, entityId: number, field: FileFieldRules, held: number, label: string) {
  const { uploader } = useServices();
  const queries = useQueryClient();
  const [uploads, setUploads] = useState<UploadInProgress[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const nextKey = useRef(0);

  const progress = (key: number, fraction: number) =>
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, fraction } : upload)));

  async function upload(files: File[]) {
    const { accepted, refusals } = checkFiles(field, files, held + uploads.length, label);
    setProblems(refusals);
    if (accepted.length === 0) return;
    const queued = accepted.map((file) => ({ file, key: nextKey.current++ }));
    setUploads((all) => [...all, ...queued.map(({ file, key }) => ({ key, name: file.name, fraction: 0 }))]);
    for (const { file, key } of queued) {
      try {
        await uploader({
          attachmentType: type,
          attachmentId: entityId,
          fieldName: field.name,
          file,
          onProgress: (fraction) => progress(key, fraction),
        });
        // The bar stays until the field shows the file.
        await queries.invalidateQueries({ queryKey: contentKey(type) });
      } catch (error) {
        setProblems((all) => [...all, `${file.name} was not uploaded. ${messageOf(error)}`]);
      }
      setUploads((all) => all.filter((upload) => upload.key !== key));
    }
  }

  return { uploads, problems, upload: (files: File[]) => void upload(files) };
}
