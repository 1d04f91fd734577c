import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
  streaming: false,
  fileName: 'Clip.mp4',
  error: null,
};

function setup(start: (input: unknown) => unknown = () => ({ job: JOB }), progress: () => unknown = () => downloading) {
  const cancelled: unknown[] = [];
  const result = renderWithSite(<YtdlPage />, {
    path: '/personal/youtube',
    procedures: {
      'ytdl.version': () => ({ version: '2023.03.04' }),
      'ytdl.info': () => ({ title: 'Clip' }),
      'ytdl.start': start,
      'ytdl.progress': progress,
      'ytdl.cancel': (input) => (cancelled.push(input), { cancelled: true }),
    },
  });
  return { ...result, cancelled };
}

afterEach(() => {
  vi.restoreAllMocks();
});

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

  it('hands the file to the browser while the server still downloads it, and keeps showing progress until it is sent', async () => {
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    let answer: unknown = { ...downloading, streaming: true };
    setup(undefined, () => answer);
    await userEvent.click(screen.getByLabelText('URL'));
    await userEvent.paste('https://example.com/clip.mp4');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual([{ href: `/api/ytdl/file/${JOB}`, download: 'Clip.mp4' }]));
    // Fetched once: later polls (no longer `streaming`) show the server's progress, and Cancel stays.
    answer = { ...downloading, percent: 80, downloadedBytes: 80 * 1024 * 1024 };
    await screen.findByText('80% · 80.0 MB of 100 MB · 2.5 MB/s');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    answer = { ...downloading, state: 'sent', percent: 100, speed: null };
    await screen.findByText((_, element) => element?.textContent === 'Saved as Clip.mp4 in your downloads.');
    await screen.findByRole('button', { name: 'Download' });
    expect(screen.queryByTestId('progress')).toBeNull();
    expect(saved).toHaveLength(1);
    // The message was about that link: changing the link takes it away.
    await userEvent.type(screen.getByLabelText('URL'), '2');
    expect(screen.queryByText(/^Saved as/)).toBeNull();
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
