import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeTrpcError, renderWithSite } from '../../test/render.tsx';
import { describeProgress } from './format.ts';
import YtdlPage from './YtdlPage.tsx';

const JOB = '11111111-1111-4111-8111-111111111111';
const downloading = {
  job: JOB,
  state: 'downloading',
  title: 'Clip',
  format: 'mp4',
  percent: 42,
  downloadedBytes: 42 * 1024 * 1024,
  totalBytes: 100 * 1024 * 1024,
  speed: 2.5 * 1024 * 1024,
  fileName: 'Clip.mp4',
  error: null,
};

function setup(start: (input: unknown) => unknown = () => ({ job: JOB })) {
  const cancelled: unknown[] = [];
  const result = renderWithSite(<YtdlPage />, {
    path: '/personal/youtube',
    procedures: {
      'ytdl.version': () => ({ version: '2023.03.04' }),
      'ytdl.info': () => ({ title: 'Clip' }),
      'ytdl.start': start,
      'ytdl.progress': () => downloading,
      'ytdl.cancel': (input) => (cancelled.push(input), { cancelled: true }),
    },
  });
  return { ...result, cancelled };
}

describe('YtdlPage', () => {
  it('shows the title, then real progress; a second click does nothing; Cancel stops the job', async () => {
    const { calls, cancelled } = setup();
    await userEvent.click(screen.getByLabelText('URL'));
    await userEvent.paste('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1');
    expect(screen.getByTitle('Video preview').getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await screen.findByText('Clip');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await screen.findByText('42% · 42.0 MB of 100 MB · 2.5 MB/s');
    await userEvent.click(screen.getByRole('button', { name: 'Downloading...' }));
    expect(calls.filter((c) => c.path === 'ytdl.start')).toEqual([
      { path: 'ytdl.start', input: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', format: 'mp4' } },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancelled).toEqual([{ job: JOB }]);
    await screen.findByRole('button', { name: 'Download' });
  });

  it('shows why a download cannot start', async () => {
    setup(() => {
      throw new FakeTrpcError('You already have a download running: wait for it to finish or cancel it', { code: 'TOO_MANY_REQUESTS' }, 429);
    });
    await userEvent.click(screen.getByLabelText('URL'));
    await userEvent.paste('https://example.com/clip.mp4');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('You already have a download running: wait for it to finish or cancel it'));
  });

  it('describes progress with what is known', () => {
    expect(describeProgress({ percent: null, downloadedBytes: 2048, totalBytes: null, speed: null })).toBe('2.0 KB');
  });
});
