import { describeCaptureDate, mediaUrl, parseCaptureDate, pictureMessages, showsInBrowser, type Picture } from '@site/contracts/pictures';

/** 'Taken on: July 15, 2024' or 'Unknown capture date'. */
export function takenOn(picture: Pick<Picture, 'uploaded'>): string {
  const date = parseCaptureDate(picture.uploaded);
  const text = date ? describeCaptureDate(date) : null;
  return text ? `Taken on: ${text}` : 'Unknown capture date';
}

/** Builds a file's URL: the members' `/private/pictures/...` (mediaUrl) or a guest link's. */
export type UrlOf = (target: string, variant?: 'thumb' | 'display' | 'poster') => string;

/**
 * How many tiles of a grid are on the first screen of a phone (two columns, three rows) or more: their
 * pictures are fetched at once and first, the rest when they come near the screen.
 */
export const FIRST_SCREEN_TILES = 6;

/** Loading attributes of a grid's `index`th picture: the first screen's at once, the others lazily. */
function loadingOf(index: number) {
  return index < FIRST_SCREEN_TILES ? ({ loading: 'eager', fetchPriority: index < 2 ? 'high' : 'auto' } as const) : ({ loading: 'lazy' } as const);
}

/** A grid tile's picture (the `index`th of its grid): the WebP thumbnail when ready, a placeholder while it is being made. */
/** The ▶ over a video's tile, in every grid (the gallery, an album, a guest's album). */
export function PlayMark({ picture }: { picture: Picture }) {
  if (picture.kind !== 'video') return null;
  return (
    <span className="play-mark" aria-hidden="true">
      ▶
    </span>
  );
}

export function Thumb({ picture, index, urlOf = mediaUrl }: { picture: Picture; index: number; urlOf?: UrlOf }) {
  if (picture.thumb === 'ready') {
    return (
      <img
        src={urlOf(picture.target, 'thumb')}
        alt={picture.desc || 'Picture'}
        {...loadingOf(index)}
        decoding="async"
        width={picture.thumbWidth ?? 400}
        height={picture.thumbHeight ?? 400}
      />
    );
  }
  if (picture.thumb === 'pending') return <span className="thumb-placeholder">Preparing…</span>;
  // Never handed to the browser either: a picture too large for the server is too large for a phone.
  if (picture.previewTooLarge) return <span className="thumb-placeholder">{pictureMessages.tooLargeToPreview}</span>;
  if (picture.kind === 'image' && showsInBrowser(picture.fileType)) {
    return <img src={urlOf(picture.target)} alt={picture.desc || 'Picture'} {...loadingOf(index)} decoding="async" width={400} height={400} />;
  }
  const label = picture.kind === 'video' ? '▶ Video' : picture.fileType.toUpperCase();
  return (
    <span className="thumb-placeholder" title={previewNote(picture) ?? undefined}>
      {label}
    </span>
  );
}

/** Why a picture has no preview: too large to preview, or the server lacks a program for it (what to install). */
export function previewNote(picture: Pick<Picture, 'previewNeeds' | 'previewTooLarge'>): string | null {
  if (picture.previewTooLarge) return pictureMessages.tooLargeToPreview;
  return picture.previewNeeds ? `No preview yet: install ${picture.previewNeeds} on the server to see one.` : null;
}

/** A members' grid tile: the picture as a button that opens it in the viewer, with its ▶ and a waiting one's badge. */
export function PictureTile({ picture, index, onOpen }: { picture: Picture; index: number; onOpen: () => void }) {
  return (
    <button
      type="button"
      className={`picture-tile${picture.pending ? ' pending' : ''}`}
      onClick={onOpen}
      aria-label={`Open ${picture.desc || 'picture'}${picture.pending ? ' (waiting for approval)' : ''}`}
    >
      <Thumb picture={picture} index={index} />
      <PlayMark picture={picture} />
      {picture.pending && <span className="pending-badge">Pending</span>}
    </button>
  );
}
