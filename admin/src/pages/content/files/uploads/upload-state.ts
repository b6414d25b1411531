import type { ApiError } from '../../../../api/problems';
import { mayRetry } from './tus-requests';

/** One upload as the page shows it. */
export interface UploadItem {
  id: string;
  name: string;
  status: 'uploading' | 'paused' | 'failed' | 'done';
  /** Sent so far, 0 to 1. */
  fraction: number;
  /** Where it resumed, 0 to 1, when the service held part of the file already. */
  resumedAt?: number;
  /** Why it failed, one or two sentences. */
  error?: string;
  /** Whether trying again may help (the network, a busy or failing service), as opposed to a refusal. */
  retryable?: boolean;
}

export type UploadEvent =
  | { type: 'added'; id: string; name: string }
  | { type: 'progress'; id: string; sent: number; total: number }
  | { type: 'resuming'; id: string; offset: number; total: number }
  | { type: 'paused' | 'resumed' | 'retried' | 'completed'; id: string }
  | { type: 'removed'; id: string }
  | { type: 'failed'; id: string; error: ApiError };

const fractionOf = (sent: number, total: number) => (total > 0 ? Math.min(1, sent / total) : 1);

/** The uploads of a field after an event; events about an upload that is not in the list change nothing. */
export function uploadsAfter(items: UploadItem[], event: UploadEvent): UploadItem[] {
  if (event.type === 'added') {
    return [...items.filter((item) => item.id !== event.id), { id: event.id, name: event.name, ...STARTED }];
  }
  if (event.type === 'removed') return items.filter((item) => item.id !== event.id);
  return items.map((item) => (item.id === event.id ? changed(item, event) : item));
}

const STARTED = { status: 'uploading', fraction: 0 } as const;

function changed(item: UploadItem, event: Exclude<UploadEvent, { type: 'added' | 'removed' }>): UploadItem {
  switch (event.type) {
    case 'progress':
      // A late progress event does not bring back an upload that is over.
      return item.status === 'done' || item.status === 'failed'
        ? item
        : { ...item, fraction: fractionOf(event.sent, event.total) };
    case 'resuming': {
      const fraction = fractionOf(event.offset, event.total);
      return { ...item, fraction, resumedAt: event.offset > 0 ? fraction : undefined };
    }
    case 'paused':
      return item.status === 'uploading' ? { ...item, status: 'paused' } : item;
    case 'resumed':
      return item.status === 'paused' ? { ...item, status: 'uploading' } : item;
    case 'retried':
      return { ...item, status: 'uploading', error: undefined, retryable: undefined };
    case 'completed':
      return { ...item, status: 'done', fraction: 1 };
    case 'failed':
      return {
        ...item,
        status: 'failed',
        error: event.error.message,
        retryable: mayRetry(event.error),
      };
  }
}

/** What the upload is doing, when the bar alone does not say it. */
export function statusText(item: UploadItem): string {
  if (item.status === 'paused') return 'Paused';
  if (item.status === 'done') return 'Uploaded';
  if (item.status === 'failed') return '';
  if (item.fraction === 1) return 'Finishing…';
  return item.resumedAt !== undefined ? `Resuming at ${Math.floor(item.resumedAt * 100)}%` : '';
}
