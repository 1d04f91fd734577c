import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { mediaUrl, pictureMessages, showsInBrowser, type Picture } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { previewNote, takenOn, type UrlOf } from './media.tsx';

/** The one download of the viewer: every picture's and video's original, byte for byte, to whoever sees it. */
function DownloadOriginal({ picture, urlOf = mediaUrl }: { picture: Picture; urlOf?: UrlOf | undefined }) {
  return (
    <p className="viewer-download">
      <a href={urlOf(picture.target)} download>
        {`Download the original ${picture.fileType.toUpperCase()} file`}
      </a>
    </p>
  );
}

function Media({ picture, onClose, urlOf = mediaUrl }: { picture: Picture; onClose: () => void; urlOf?: UrlOf | undefined }) {
  const original = urlOf(picture.target);
  const type = picture.fileType.toUpperCase();
  const note = previewNote(picture);
  if (picture.kind === 'video') {
    const plays = showsInBrowser(picture.fileType);
    return (
      <div className="viewer-media">
        {plays ? (
          <video
            key={picture.target}
            src={original}
            controls
            preload="metadata"
            playsInline
            {...(picture.poster ? { poster: urlOf(picture.target, 'poster') } : {})}
          />
        ) : (
          picture.poster && <img src={urlOf(picture.target, 'poster')} alt={picture.desc || 'Video'} onClick={onClose} />
        )}
        {note && <p className="small">{note}</p>}
        {picture.fileType === 'mov' && <p className="small">Some browsers cannot play .mov files. If it does not play, download the original below.</p>}
        {!plays && <p className="small">{`Browsers cannot play ${type} videos: download the original below.`}</p>}
      </div>
    );
  }
  if (picture.kind === 'image' && (!showsInBrowser(picture.fileType) || picture.previewTooLarge)) {
    // HEIC, TIFF, BMP, PSD: the display WebP made on upload (the original is the viewer's download).
    // A picture too large to preview is only offered as a download, whatever its type.
    return (
      <div className="viewer-media">
        {picture.display && <img src={urlOf(picture.target, 'display')} alt={picture.desc || 'Picture'} onClick={onClose} />}
        {note && <p className="small">{note}</p>}
      </div>
    );
  }
  if (picture.kind === 'image') {
    const src = picture.display ? urlOf(picture.target, 'display') : original;
    return (
      <div className="viewer-media">
        <img src={src} alt={picture.desc || 'Picture'} onClick={onClose} />
      </div>
    );
  }
  return <p className="viewer-media error-text">{pictureMessages.unrecognisedType}</p>;
}

function AdminTools({ picture, onDeleted }: { picture: Picture; onDeleted: () => void }) {
  const utils = trpc.useUtils();
  const [caption, setCaption] = useState(picture.desc);
  const [date, setDate] = useState(picture.uploaded);
  const refresh = () => utils.pictures.invalidate();
  const update = trpc.pictures.update.useMutation({ onSuccess: refresh });
  const remove = trpc.pictures.delete.useMutation({
    onSuccess: () => {
      onDeleted();
      void refresh();
    },
  });
  const approve = trpc.pictures.approve.useMutation({ onSuccess: refresh });
  const save = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ id: picture.id, caption, date });
  };
  const error = update.error ?? remove.error ?? approve.error;
  return (
    <form className="viewer-admin" onSubmit={save} aria-label="Edit picture">
      <TextInput label="Caption" value={caption} onValueChange={setCaption} maxLength={500} />
      <TextInput label="Date (year-month-day, xx when unknown)" value={date} onValueChange={setDate} maxLength={20} />
      <ErrorBubble message={error ? error.message : null} />
      <div className="link-row">
        <button type="submit" className="button" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </button>
        {picture.pending && (
          <button type="button" className="button primary" onClick={() => approve.mutate({ id: picture.id })}>
            Approve
          </button>
        )}
        <button
          type="button"
          className="button danger"
          onClick={() => {
            if (window.confirm('Delete this picture for good?')) remove.mutate({ id: picture.id });
          }}
        >
          Delete
        </button>
      </div>
    </form>
  );
}

type Props = {
  pictures: Picture[];
  index: number;
  admin: boolean;
  onMove: (index: number) => void;
  onClose: () => void;
  /** Under the date: the picture's hearts and comments (ViewerSocial.tsx), as the page gives them. */
  social?: (picture: Picture) => ReactNode;
  /** Where the files are fetched from (a guest's link has its own routes); the members' by default. */
  urlOf?: UrlOf;
  /** Under the picture: what the page around the viewer offers for it ("Add to album", a download). */
  extra?: (picture: Picture) => ReactNode;
  /** Where it was taken, beside the date ("Arezzo, Italy"); nothing when unknown or not to be told. */
  place?: (picture: Picture) => ReactNode;
};

/**
 * One picture at a time over the grid: caption, the picture or video, its capture date. Clicking the
 * picture closes it, left and right move within the page, Escape closes.
 */
export function Viewer({ pictures, index, admin, onMove, onClose, social, urlOf, extra, place }: Props) {
  const picture = pictures[index];
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.tagName === 'INPUT' || target?.tagName === 'TEXTAREA';
      if (event.key === 'Escape') onClose();
      else if (typing) return;
      else if (event.key === 'ArrowLeft' && index > 0) onMove(index - 1);
      else if (event.key === 'ArrowRight' && index < pictures.length - 1) onMove(index + 1);
      else return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [index, pictures.length, onMove, onClose]);
  if (!picture) return null;
  return (
    <div className="viewer-backdrop" onClick={(event) => event.target === event.currentTarget && onClose()}>
      {/* A dialog around the figure: a figure may not take the dialog role (axe's aria-allowed-role). */}
      <div className="viewer card" role="dialog" aria-modal="true" aria-label={picture.desc || 'Picture'} data-testid="picture-viewer">
        <div className="viewer-bar">
          <button type="button" className="button" onClick={() => onMove(index - 1)} disabled={index === 0} aria-label="Previous picture">
            ‹
          </button>
          <span className="small">
            {index + 1} of {pictures.length}
          </span>
          <button
            type="button"
            className="button"
            onClick={() => onMove(index + 1)}
            disabled={index >= pictures.length - 1}
            aria-label="Next picture"
          >
            ›
          </button>
          <button ref={closeRef} type="button" className="button" onClick={onClose} aria-label="Close viewer">
            ✕
          </button>
        </div>
        <figure className="viewer-figure">
          <figcaption>
            <strong className="viewer-caption">{picture.desc}</strong>
            {picture.pending && <span className="pending-badge">Waiting for approval</span>}
          </figcaption>
          <Media picture={picture} onClose={onClose} urlOf={urlOf} />
          <p className="viewer-date">
            {takenOn(picture)}
            {place?.(picture)}
          </p>
        </figure>
        <DownloadOriginal picture={picture} urlOf={urlOf} />
        {social?.(picture)}
        {extra?.(picture)}
        {admin && <AdminTools key={picture.id} picture={picture} onDeleted={onClose} />}
      </div>
    </div>
  );
}
