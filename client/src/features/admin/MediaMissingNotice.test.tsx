import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MediaCheck } from '@site/contracts/pictures';
import { renderWithSite } from '../../test/render.tsx';
import { MediaMissingNotice } from './MediaMissingNotice.tsx';

const check = (missing: number): MediaCheck => ({
  checkedAt: '2026-11-24T07:00:00.000Z',
  checked: 10,
  missing,
  examples: missing ? [`${'a'.repeat(32)}.jpg`] : [],
  mediaDir: '/srv/site/media',
});

describe('the Admin page notice of missing media', () => {
  it('names what this instance lacks and asks for the shared MEDIA_DIR', async () => {
    renderWithSite(<MediaMissingNotice />, { path: '/admin', procedures: { 'pictures.mediaCheck': () => check(1) } });
    const notice = await screen.findByTestId('media-missing');
    expect(notice).toHaveTextContent('1 of 10 pictures named in the database are missing from this server');
    expect(notice).toHaveTextContent('/srv/site/media');
    expect(notice).toHaveTextContent('Every instance needs the same MEDIA_DIR');
  });

});
