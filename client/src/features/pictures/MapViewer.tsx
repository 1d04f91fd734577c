import { useCallback } from 'react';
import type { Picture } from '@site/contracts/pictures';
import { AddToAlbum } from './albums.tsx';
import { Viewer } from './Viewer.tsx';
import { MemberSocial } from './ViewerSocial.tsx';

/** The gallery's viewer as the map opens it (loaded when a marker is first opened: the map's own chunk stays small). */
export default function MapViewer({
  pictures,
  index,
  admin,
  onMove,
  onClose,
}: {
  pictures: Picture[];
  index: number;
  admin: boolean;
  onMove: (index: number) => void;
  onClose: () => void;
}) {
  const social = useCallback((p: Picture) => (!p.pending || admin ? <MemberSocial key={p.id} pictureId={p.id} /> : null), [admin]);
  return (
    <Viewer
      pictures={pictures}
      index={index}
      admin={admin}
      onMove={onMove}
      onClose={onClose}
      social={social}
      extra={(picture) => <AddToAlbum key={picture.id} picture={picture} />}
    />
  );
}
