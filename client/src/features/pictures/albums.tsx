import { useState } from 'react';
import { Link } from 'react-router-dom';
import { albumPath } from '@site/contracts/albums';
import type { Picture } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';

/**
 * Under a picture in the viewer: which of the member's albums hold it already, and "Add to album", a
 * choice of the albums this member may change (those holding it named so, and not offered first).
 * Lives in the pictures feature with the viewer (a feature imports only its own folder).
 */
export function AddToAlbum({ picture }: { picture: Picture }) {
  const utils = trpc.useUtils();
  const albums = trpc.albums.list.useQuery();
  const holding = trpc.albums.holding.useQuery({ pictureId: picture.id }, { enabled: !picture.pending });
  const changeable = (albums.data ?? []).filter((a) => a.mayChange);
  const holds = new Set(holding.data ?? []);
  const [chosen, setChosen] = useState<string>('');
  const [done, setDone] = useState<{ text: string; albumId: number } | null>(null);
  const add = trpc.albums.addPictures.useMutation({
    onSuccess: (_r, input) => {
      setDone({ text: `Added to ${changeable.find((a) => a.id === input.albumId)?.name ?? 'the album'}`, albumId: input.albumId });
      void utils.albums.invalidate();
    },
  });
  if (picture.pending) return null;
  const inAlbums = (albums.data ?? []).filter((a) => holds.has(a.id));
  const inLine = holding.data && (
    <p className="small" data-testid="in-albums">
      {inAlbums.length === 0 ? (
        'In no album yet.'
      ) : (
        <>
          In{' '}
          {inAlbums.map((a, i) => (
            <span key={a.id}>
              {i > 0 ? ', ' : ''}
              <Link to={albumPath(a.id)}>{a.name}</Link>
            </span>
          ))}
          .
        </>
      )}
    </p>
  );
  if (albums.data && changeable.length === 0) {
    return (
      <>
        {inLine}
        <p className="small">
          <Link to="/personal/pictures/albums">Make an album</Link> to add pictures to it.
        </p>
      </>
    );
  }
  const firstFree = changeable.find((a) => !holds.has(a.id)) ?? changeable[0];
  const albumId = Number(chosen || firstFree?.id || 0);
  return (
    <>
      {inLine}
      <form
        className="add-to-album"
        aria-label="Add to album"
        onSubmit={(event) => {
          event.preventDefault();
          setDone(null);
          if (albumId) add.mutate({ albumId, pictureIds: [picture.id] });
        }}
      >
        <label>
          Album{' '}
          <select value={chosen || String(firstFree?.id ?? '')} onChange={(event) => setChosen(event.target.value)}>
            {changeable.map((a) => (
              <option key={a.id} value={a.id}>
                {holds.has(a.id) ? `${a.name} (has it)` : a.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={add.isPending || !albumId || holds.has(albumId)}>
          Add to album
        </button>
        {done && (
          <span role="status" className="small">
            {done.text} · <Link to={albumPath(done.albumId)}>open it</Link>
          </span>
        )}
        <ErrorBubble message={add.error ? add.error.message : null} />
      </form>
    </>
  );
}
