import type { Schemas } from './client';
import { ApiError, type ProblemBody } from './problems';
import type { TokenSource } from './client';

export type FileRecord = Schemas['FileRecord'];

/** The upload route's path (in openapi.json, one `upload<Type><Field>` operation per field), filled in. */
export const uploadPath = (attachmentType: string, attachmentId: number, fieldName: string) =>
  `/files/${encodeURIComponent(attachmentType)}/${attachmentId}/${encodeURIComponent(fieldName)}`;

export interface Upload {
  attachmentType: string;
  attachmentId: number;
  fieldName: string;
  file: File;
  /** Called with the fraction sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export type Uploader = (upload: Upload) => Promise<FileRecord>;

/**
 * The one call not made through the generated client: fetch cannot report an upload's progress, XMLHttpRequest can.
 * It sends what the upload operations describe (multipart/form-data, part `file`) and types its answer with the
 * generated schema; the token goes in the Authorization header as for every other call.
 */
export function createUploader(tokens: TokenSource, baseUrl = globalThis.location?.origin ?? ''): Uploader {
  const send = (upload: Upload, token: string | undefined) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${baseUrl}${uploadPath(upload.attachmentType, upload.attachmentId, upload.fieldName)}`);
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.responseType = 'json';
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) upload.onProgress?.(event.loaded / event.total);
      };
      xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
      xhr.onerror = () => reject(new ApiError(0, undefined));
      xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
      upload.signal?.addEventListener('abort', () => xhr.abort());
      const form = new FormData();
      form.append('file', upload.file, upload.file.name);
      xhr.send(form);
    });
  return async (upload) => {
    const token = await tokens.accessToken();
    let answer = await send(upload, token);
    if (answer.status === 401 && token) answer = await send(upload, await tokens.renewAfterRejection(token));
    if (answer.status < 200 || answer.status >= 300) throw new ApiError(answer.status, answer.body as ProblemBody);
    upload.onProgress?.(1);
    return answer.body as FileRecord;
  };
}
