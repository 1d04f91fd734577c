import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ytdlMessages } from '@site/contracts/ytdl';
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
  codecs: null,
  error: null,
};

const FRESH = { version: '2026.11.20', released: '2026-11-20', ageDays: 4, outdated: false };

function setup(start: (input: unknown) => unknown = () => ({ job: JOB }), progress: () => unknown = () => downloading, version: unknown = FRESH) {
  const cancelled: unknown[] = [];
  const result = renderWithSite(<YtdlPage />, {
    path: '/personal/youtube',
    procedures: {
      'ytdl.version': () => version,
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

  it('says which codecs the saved file holds, and warns when they may not play everywhere', async () => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    let answer: unknown = { ...downloading, state: 'ready', percent: 100, codecs: { video: 'h264', audio: 'aac' } };
    setup(undefined, () => answer);
    await userEvent.click(screen.getByLabelText('URL'));
    await userEvent.paste('https://example.com/clip.mp4');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(screen.getByTestId('codecs').textContent).toBe('H.264 video, AAC audio. Plays on iPhones, Android, computers and TVs.'));

    answer = { ...downloading, state: 'ready', percent: 100, codecs: { video: 'vp9', audio: 'opus' } };
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() =>
      expect(screen.getByTestId('codecs').textContent).toBe(
        'VP9 video, Opus audio. The site had no H.264 video with AAC audio for it, so this file may not play on iPhones or older TVs.',
      ),
    );
  });

  it('tells the member when the server\'s yt-dlp is more than 90 days old', async () => {
    setup(undefined, undefined, { version: '2023.03.04', released: '2023-03-04', ageDays: 1361, outdated: true });
    await waitFor(() =>
      expect(screen.getByTestId('ytdlp-outdated').textContent).toBe(
        'The downloader here (yt-dlp 2023.03.04) is 1361 days old: video sites change often, so downloads from them may fail. Ask the site owner to update it.',
      ),
    );
  });

  it('says nothing about the age of a fresh yt-dlp', async () => {
    setup();
    await screen.findByText('Downloads with yt-dlp 2026.11.20.');
    expect(screen.queryByTestId('ytdlp-outdated')).toBeNull();
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

  it('says once that the site cannot reach the internet, when both the title lookup and Download are refused for it', async () => {
    const offline = () => {
      throw new FakeTrpcError(ytdlMessages.noInternet, { code: 'SERVICE_UNAVAILABLE' }, 503);
    };
    renderWithSite(<YtdlPage />, {
      path: '/personal/youtube',
      procedures: { 'ytdl.version': () => FRESH, 'ytdl.info': offline, 'ytdl.start': offline, 'ytdl.progress': () => downloading, 'ytdl.cancel': () => ({ cancelled: true }) },
    });
    await userEvent.click(screen.getByLabelText('URL'));
    await userEvent.paste('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await waitFor(() => expect(screen.getByTestId('info-error')).toHaveTextContent(ytdlMessages.noInternet));
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(screen.getByTestId('download-error')).toHaveTextContent(ytdlMessages.noInternet));
    expect(screen.getAllByText(ytdlMessages.noInternet)).toHaveLength(1);
    expect(screen.queryByText(/check the link/)).not.toBeInTheDocument();
  });

  it('describes progress with what is known', () => {
    expect(describeProgress({ percent: null, downloadedBytes: 2048, totalBytes: null, speed: null })).toBe('2.0 KB');
  });
});
