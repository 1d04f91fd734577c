import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithSite } from '../../test/render.tsx';
import { YtdlpNotice } from './YtdlpNotice.tsx';

const status = (over: object) => ({ version: '2023.03.04', released: '2023-03-04', ageDays: 1361, outdated: true, ytdlpPath: 'yt-dlp', ...over });

function show(answer: object) {
  return renderWithSite(<YtdlpNotice />, { path: '/admin', procedures: { 'ytdl.status': () => answer } });
}

describe('the Admin page notice about yt-dlp', () => {
  it('tells the owner how old it is and how to run a current one with YTDLP_PATH', async () => {
    show(status({}));
    await screen.findByRole('heading', { name: 'YT-DL: yt-dlp is out of date' });
    expect(screen.getByText(/YT-DL downloads with yt-dlp 2023\.03\.04, released 2023-03-04 \(1361 days ago\)/)).toBeTruthy();
    expect(screen.getByText(/YTDLP_PATH=\$HOME\/\.local\/bin\/yt-dlp npm start/).textContent).toContain('pipx install yt-dlp');
    expect(screen.getByText(/is now/).textContent).toContain('YTDLP_PATH is now yt-dlp.');
  });

  it('tells the owner when yt-dlp is missing', async () => {
    show(status({ version: null, released: null, ageDays: null, outdated: false, ytdlpPath: '/opt/yt-dlp' }));
    await screen.findByRole('heading', { name: 'YT-DL: yt-dlp is not installed' });
    expect(screen.getByText(/found no yt-dlp at/).textContent).toContain('/opt/yt-dlp');
  });

  it('says nothing while yt-dlp is fresh', async () => {
    const { queryClient, container } = show(status({ version: '2026.11.20', released: '2026-11-20', ageDays: 4, outdated: false }));
    await waitFor(() => expect(queryClient.getQueryCache().getAll().map((query) => query.state.status)).toEqual(['success']));
    expect(container.querySelector('.ytdlp-notice')).toBeNull();
  });
});
