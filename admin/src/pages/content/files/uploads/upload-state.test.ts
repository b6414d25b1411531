import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../api/problems';
import { statusText, uploadsAfter, type UploadEvent, type UploadItem } from './upload-state';

const run = (...events: UploadEvent[]) => events.reduce(uploadsAfter, [] as UploadItem[]);
const added = (id = 'a', name = 'a.png'): UploadEvent => ({ type: 'added', id, name });

describe('uploadsAfter', () => {
  it('follows an upload from its first byte to done, in the order added', () => {
    const [a, b] = run(added(), added('b', 'b.png'), { type: 'progress', id: 'a', sent: 25, total: 100 });
    expect(a).toEqual({ id: 'a', name: 'a.png', status: 'uploading', fraction: 0.25 });
    expect(b.fraction).toBe(0);
    expect(run(added(), { type: 'completed', id: 'a' })).toEqual([
      { id: 'a', name: 'a.png', status: 'done', fraction: 1 },
    ]);
    expect(run(added(), { type: 'removed', id: 'a' })).toEqual([]);
  });

  it('pauses only an upload under way and resumes only a paused one', () => {
    expect(run(added(), { type: 'paused', id: 'a' })[0].status).toBe('paused');
    expect(run(added(), { type: 'paused', id: 'a' }, { type: 'resumed', id: 'a' })[0].status).toBe('uploading');
    expect(run(added(), { type: 'resumed', id: 'a' })[0].status).toBe('uploading');
    const failed = { type: 'failed', id: 'a', error: new ApiError(0, undefined) } as const;
    expect(run(added(), failed, { type: 'paused', id: 'a' })[0].status).toBe('failed');
  });

  it('remembers where an upload resumed when the service held some of it', () => {
    const [item] = run(added(), { type: 'resuming', id: 'a', offset: 420, total: 1000 });
    expect(item).toMatchObject({ fraction: 0.42, resumedAt: 0.42 });
    expect(statusText(item)).toBe('Resuming at 42%');
    expect(run(added(), { type: 'resuming', id: 'a', offset: 0, total: 1000 })[0].resumedAt).toBeUndefined();
  });

  it("keeps the service's refusal, retryable only when another try may help", () => {
    const fail = (status: number) =>
      run(added(), { type: 'failed', id: 'a', error: new ApiError(status, { title: 'T', detail: 'D' }) })[0];
    expect(fail(413)).toMatchObject({ status: 'failed', error: 'T: D', retryable: false });
    expect(fail(409).retryable).toBe(false);
    expect(fail(0).retryable).toBe(true);
    expect(fail(423).retryable).toBe(true);
    expect(fail(503).retryable).toBe(true);
    const retried = uploadsAfter([fail(503)], { type: 'retried', id: 'a' })[0];
    expect(retried).toMatchObject({ status: 'uploading', error: undefined });
  });

  it('lets no late progress bring back an upload that is over, and ignores unknown uploads', () => {
    const done = run(added(), { type: 'completed', id: 'a' }, { type: 'progress', id: 'a', sent: 1, total: 2 });
    expect(done[0]).toMatchObject({ status: 'done', fraction: 1 });
    expect(run(added(), { type: 'progress', id: 'z', sent: 1, total: 2 })[0].fraction).toBe(0);
  });

  it('says what the bar does not', () => {
    const item: UploadItem = { id: 'a', name: 'a', status: 'uploading', fraction: 0.5 };
    expect(statusText(item)).toBe('');
    expect(statusText({ ...item, fraction: 1 })).toBe('Finishing…');
    expect(statusText({ ...item, status: 'paused' })).toBe('Paused');
    expect(statusText({ ...item, status: 'done' })).toBe('Uploaded');
  });
});
