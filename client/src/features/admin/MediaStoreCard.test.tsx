import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MediaStoreState } from '@site/contracts/pictures';
import { renderWithSite } from '../../test/render.tsx';
import { MediaStoreCard } from './MediaStoreCard.tsx';

const state = (ok: boolean): MediaStoreState => ({
  description: 'the bucket photos at http://127.0.0.1:9000',
  ok,
  reason: ok ? null : 'connect ECONNREFUSED 127.0.0.1:9000',
  checkedAt: '2026-11-27T21:00:00.000Z',
});

describe("the Admin page's media store line", () => {
  it('says where the media are and that the store answers', async () => {
    renderWithSite(<MediaStoreCard />, { path: '/admin', procedures: { 'pictures.mediaStore': () => state(true) } });
    expect(await screen.findByTestId('media-store')).toHaveTextContent('Media are kept in the bucket photos at http://127.0.0.1:9000: answering.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('alerts while the store does not answer, with why and what it means', async () => {
    renderWithSite(<MediaStoreCard />, { path: '/admin', procedures: { 'pictures.mediaStore': () => state(false) } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Media store not answering');
    expect(alert).toHaveTextContent('which does not answer (connect ECONNREFUSED 127.0.0.1:9000)');
    expect(alert).toHaveTextContent('Uploads are refused and pictures cannot be loaded until it answers again');
  });
});
