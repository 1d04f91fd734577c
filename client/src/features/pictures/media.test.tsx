import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Picture } from '@site/contracts/pictures';
import { FIRST_SCREEN_TILES, PlayMark, Thumb } from './media.tsx';
import { testPicture } from './test-picture.ts';

const picture = (id: number, change: Partial<Picture> = {}) => testPicture({ id, desc: `Picture ${id}`, target: `${String(id).repeat(32).slice(0, 32)}.jpg`, ...change });

describe('a grid tile', () => {
  it("fetches the first screen's thumbnails at once (the first two first) and the rest lazily", () => {
    render(
      <>
        {Array.from({ length: FIRST_SCREEN_TILES + 2 }, (_, i) => (
          <Thumb key={i} picture={picture(i + 1)} index={i} />
        ))}
      </>,
    );
    const attributes = screen.getAllByRole('img').map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority')]);
    expect(attributes).toEqual([
      ['eager', 'high'],
      ['eager', 'high'],
      ...Array.from({ length: FIRST_SCREEN_TILES - 2 }, () => ['eager', 'auto']),
      ['lazy', null],
      ['lazy', null],
    ]);
  });

  it('loads a browser-readable original without a thumbnail the same way', () => {
    render(<Thumb picture={picture(1, { thumb: 'failed' as Picture['thumb'] })} index={9} />);
    expect(screen.getByRole('img')).toHaveAttribute('loading', 'lazy');
  });
});

describe("a video's tile", () => {
  it('carries the play mark, a picture none (every grid draws its tiles with PlayMark)', () => {
    const { container, rerender } = render(<PlayMark picture={picture(1, { kind: 'video', fileType: 'mp4' })} />);
    expect(container.querySelector('.play-mark')).toHaveTextContent('▶');
    expect(container.querySelector('.play-mark')).toHaveAttribute('aria-hidden', 'true');
    rerender(<PlayMark picture={picture(2)} />);
    expect(container.querySelector('.play-mark')).toBeNull();
  });
});
