import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Picture } from '@site/contracts/pictures';
import { testPicture } from './test-picture.ts';
import { Viewer } from './Viewer.tsx';

const picture = testPicture;

const show = (p: Picture) => render(<Viewer pictures={[p]} index={0} admin={false} onMove={() => {}} onClose={() => {}} />);

describe('the viewer', () => {
  it("offers every picture's original once, to any member who sees it (a JPEG as well as a HEIC), in a dialog that is not a figure", () => {
    show(picture({ fileType: 'jpg', target: `${'a'.repeat(32)}.jpg`, display: true }));
    const links = screen.getAllByRole('link', { name: /^Download the original/ });
    expect(links.map((link) => [link.textContent, link.getAttribute('href'), link.hasAttribute('download')])).toEqual([
      ['Download the original JPG file', `/private/pictures/${'a'.repeat(32)}.jpg`, true],
    ]);
    const dialog = screen.getByRole('dialog', { name: 'Beach' });
    expect(dialog.tagName).toBe('DIV');
    expect(dialog.querySelector('figure figcaption')).toHaveTextContent('Beach');
  });

  it('offers a HEIC\'s original once, beside its display WebP', () => {
    show(picture({ fileType: 'heic', target: `${'b'.repeat(32)}.heic`, display: true }));
    expect(screen.getAllByRole('link', { name: /download/i })).toHaveLength(1);
  });

  it('shows a HEIC through its display WebP and offers the original as a download', () => {
    show(picture({ fileType: 'heic', target: `${'b'.repeat(32)}.heic`, display: true }));
    expect(screen.getByRole('img', { name: 'Beach' })).toHaveAttribute('src', `/private/pictures/${'b'.repeat(32)}.display.webp`);
    expect(screen.getByRole('link', { name: 'Download the original HEIC file' })).toHaveAttribute('href', `/private/pictures/${'b'.repeat(32)}.heic`);
  });

  it('says what to install when the server could not make a preview, and offers a video browsers cannot play', () => {
    show(picture({ kind: 'video', fileType: '3gp', target: `${'c'.repeat(32)}.3gp`, thumb: 'none', previewNeeds: 'ffmpeg' }));
    expect(screen.getByText('No preview yet: install ffmpeg on the server to see one.')).toBeInTheDocument();
    expect(screen.getByText('Browsers cannot play 3GP videos: download the original below.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the original 3GP file' })).toHaveAttribute('download');
    expect(document.querySelector('video')).toBeNull();
  });

  it('says a picture is too large to preview and only offers its original as a download, never as an image', () => {
    show(picture({ fileType: 'avif', target: `${'d'.repeat(32)}.avif`, thumb: 'none', previewTooLarge: true }));
    expect(screen.getByText('No preview: the picture is too large to preview')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the original AVIF file' })).toHaveAttribute('href', `/private/pictures/${'d'.repeat(32)}.avif`);
    expect(screen.queryByRole('img')).toBeNull();
  });
});
