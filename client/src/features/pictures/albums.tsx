import { useState } from 'react';
import { Link } from 'react-router-dom';
import { albumPath } from '@site/contracts/albums';
import type { Picture } from '@site/contracts/pictures';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';

/**
 * Under a picture in the viewer: "Add to album", a choice of the albums this member may change. Lives
 * in the pictures feature with the viewer (a feature imports only its own folder).
 */
export function AddToAlbum({ picture }: { picture: Picture }) {
  const utils = trpc.useUtils();
  const albums = trpc.albums.list.useQuery();
  const changeable = (albums.data ?? []).filter((a) => a.mayChange);
  const [chosen, setChosen] = useState<string>('');
  const [done, setDone] = useState<string | null>(null);
  const add = trpc.albums.addPictures.useMutation({
    onSuccess: (_r, input) => {
      setDone(`Added to ${changeable.find((a) => a.id === input.albumId)?.name ?? 'the album'}`);
      void utils.albums.invalidate();
    },
  });
  if (picture.pending) return null;
  if (albums.data && changeable.length === 0) {
    return (
      <p className="small">
        <Link to="/personal/pictures/albums">Make an album</Link> to add pictures to it.
      </p>
    );
  }
  const albumId = Number(chosen || changeable[0]?.id || 0);
  return (
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
        <select value={chosen || String(changeable[0]?.id ?? '')} onChange={(event) => setChosen(event.target.value)}>
          {changeable.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={add.isPending || !albumId}>
        Add to album
      </button>
      {done && (
        <span role="status" className="small">
          {done} · <Link to={albumPath(albumId)}>open it</Link>
        </span>
      )}
      <ErrorBubble message={add.error ? add.error.message : null} />
    </form>
  );
}
