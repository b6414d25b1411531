import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../api/problems';
import type { FileFieldRules } from '../../../../content-types';
import { json, renderPage } from '../../../../testing/render';
import { me } from '../../../../testing/system-fixtures';
import { FileFieldPanel } from '../file-field-panel';
import { fakeUploader } from './fake-uploader';

const gallery: FileFieldRules = {
  name: 'gallery',
  multi: true,
  accept: ['*/*'],
  refused: [],
  max_size: 10_000_000,
  max_count: null,
  max_files_per_request: 10,
  max_pixels: null,
  variants: [],
};

function renderPanel() {
  const fake = fakeUploader();
  const view = renderPage(
    <FileFieldPanel type="product" entityId={7} field={gallery} label={{ title: 'Gallery' }} files={[]} />,
    { routes: { 'GET /api/me': () => json(me(['product:read', 'product:write'])) }, uploader: fake.uploader },
  );
  return { ...fake, ...view };
}

async function pick(...names: string[]) {
  const files = names.map((name) => new File([new Uint8Array(10)], name, { type: 'image/png' }));
  await userEvent.upload(await screen.findByLabelText('Choose files for Gallery'), files);
  await screen.findByRole('progressbar', { name: `Uploading ${names[0]}` });
  return files;
}

const row = (name: string) =>
  within(screen.getByRole('list', { name: 'Uploads to Gallery' }))
    .getAllByRole('listitem')
    .find((item) => item.textContent?.startsWith(name))!;

describe('Upload controls', () => {
  it('pauses, resumes and cancels an upload with its buttons', async () => {
    const { queue } = renderPanel();
    await pick('a.png', 'b.png');
    const uploads = queue('gallery');
    const [a, b] = [uploads.idOf('a.png'), uploads.idOf('b.png')];

    await userEvent.click(screen.getByRole('button', { name: 'Pause a.png' }));
    expect(within(row('a.png')).getByText('Paused')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Resume a.png' }));
    await screen.findByRole('button', { name: 'Pause a.png' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel b.png' }));
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Uploading b.png' })).toBeNull());
    expect(uploads.asked).toEqual([`pause ${a}`, `resume ${a}`, `cancel ${b}`]);
  });

  it('says where an upload resumes when the service holds part of it', async () => {
    const { queue } = renderPanel();
    await pick('video.mp4');
    const uploads = queue('gallery');
    act(() => uploads.listener.resuming(uploads.idOf('video.mp4'), 4_200, 10_000));
    expect(within(row('video.mp4')).getByText('Resuming at 42%')).toBeTruthy();
    expect(screen.getByRole<HTMLProgressElement>('progressbar', { name: 'Uploading video.mp4' }).value).toBe(0.42);
    act(() => uploads.listener.progress(uploads.idOf('video.mp4'), 10_000, 10_000));
    expect(within(row('video.mp4')).getByText('Finishing…')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pause video.mp4' })).toBeNull();
  });

  it('offers another try when the service could not be reached', async () => {
    const { queue } = renderPanel();
    await pick('a.png');
    const uploads = queue('gallery');
    act(() => uploads.listener.failed(uploads.idOf('a.png'), new ApiError(0, undefined)));
    expect(within(row('a.png')).getByRole('alert').textContent).toMatch(
      /^a\.png was not uploaded\. The service cannot/,
    );
    expect(screen.queryByRole('progressbar', { name: 'Uploading a.png' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Retry a.png' }));
    await screen.findByRole('progressbar', { name: 'Uploading a.png' });
    expect(within(row('a.png')).queryByRole('alert')).toBeNull();
    expect(uploads.asked).toEqual([`retry ${uploads.idOf('a.png')}`]);
  });

  it('says so when the same file is picked while it is in the list', async () => {
    renderPanel();
    const [file] = await pick('a.png');
    await userEvent.upload(screen.getByLabelText('Choose files for Gallery'), file);
    expect((await screen.findByRole('alert')).textContent).toBe('a.png was not uploaded. It is in the list already.');
  });

  it('opens one queue for the field and pauses it when the page goes', async () => {
    const { queues, unmount, uploader } = renderPanel();
    await pick('a.png');
    await pick('b.png');
    expect(uploader).toHaveBeenCalledTimes(1);
    unmount();
    await waitFor(() => expect(queues[0].closed).toBe(true));
  });
});
