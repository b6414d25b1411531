import { vi } from 'vitest';
import type { UploadListener, UploadQueue, UploadTarget, Uploader } from '../../../../api/uploads';

/** An upload queue whose uploads the test drives through its `listener`; it records what the page asked of it. */
class FakeUploadQueue implements UploadQueue {
  readonly added: Array<{ id: string; file: File }> = [];
  readonly asked: string[] = [];
  closed = false;

  constructor(
    readonly target: UploadTarget,
    readonly listener: UploadListener,
  ) {}

  /** The id of the upload of the file named `name`. */
  idOf(name: string): string {
    const upload = this.added.find(({ file }) => file.name === name);
    if (!upload) throw new Error(`${name} was not added`);
    return upload.id;
  }

  add(file: File): string {
    if (this.added.some((upload) => upload.file === file)) throw new Error('It is in the list already.');
    const id = `upload-${this.added.length + 1}`;
    this.added.push({ id, file });
    return id;
  }
  pause = (id: string) => void this.asked.push(`pause ${id}`);
  resume = (id: string) => void this.asked.push(`resume ${id}`);
  retry = (id: string) => void this.asked.push(`retry ${id}`);
  cancel = (id: string) => void this.asked.push(`cancel ${id}`);
  close = () => void (this.closed = true);
}

/** An Uploader that opens fake queues, one per field, found again with `queue(fieldName)`. */
export function fakeUploader() {
  const queues: FakeUploadQueue[] = [];
  const uploader = vi.fn<Uploader>((target, listener) => {
    const queue = new FakeUploadQueue(target, listener);
    queues.push(queue);
    return Promise.resolve(queue);
  });
  const queue = (fieldName: string) => {
    const found = queues.find((candidate) => candidate.target.fieldName === fieldName);
    if (!found) throw new Error(`No queue for ${fieldName}`);
    return found;
  };
  return { uploader, queues, queue };
}
