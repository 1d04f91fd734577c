import { useCallback, type ReactNode } from 'react';
import type { Picture } from '@site/contracts/pictures';
import { trpc } from '../../lib/trpc.ts';
import { MemberTools } from './MemberTools.tsx';
import { Viewer } from './Viewer.tsx';
import { MemberSocial } from './ViewerSocial.tsx';

/** Hearts and comments (and where it was taken) are the member's to read for an approved picture, or any for an admin. */
const readable = (picture: Picture, admin: boolean) => !picture.pending || admin;

/**
 * Where a picture was taken ("Arezzo, Italy", the places search and the map use), beside its date:
 * from the picture's hearts-and-comments answer, the same call MemberSocial makes (one request).
 */
function MemberPlace({ pictureId }: { pictureId: number }) {
  const place = trpc.pictures.social.useQuery({ id: pictureId }).data?.place;
  return place ? <span className="viewer-place"> · {place}</span> : null;
}

/**
 * The members' viewer, the same in every grid (the gallery, search, an album, a person, the map):
 * the picture with its date and place, hearts and comments, who is in it and its tags, the page's own
 * tools (`tools`), adding it to an album, and the admin's tools.
 */
export function MemberViewer({
  pictures,
  index,
  admin,
  onMove,
  onClose,
  tools,
}: {
  pictures: Picture[];
  index: number;
  admin: boolean;
  onMove: (index: number) => void;
  onClose: () => void;
  tools?: (picture: Picture) => ReactNode;
}) {
  const social = useCallback((p: Picture) => (readable(p, admin) ? <MemberSocial key={p.id} pictureId={p.id} /> : null), [admin]);
  const place = useCallback((p: Picture) => (readable(p, admin) ? <MemberPlace key={p.id} pictureId={p.id} /> : null), [admin]);
  return (
    <Viewer
      pictures={pictures}
      index={index}
      admin={admin}
      onMove={onMove}
      onClose={onClose}
      social={social}
      place={place}
      extra={(picture) => (
        <MemberTools key={picture.id} picture={picture}>
          {tools?.(picture)}
        </MemberTools>
      )}
    />
  );
}

/** The map loads the viewer when a marker is first opened (its own chunk stays small). */
export default MemberViewer;
