import type { ReactNode } from 'react';
import { mediaUrl, type Picture } from '@site/contracts/pictures';
import { AddToAlbum } from './albums.tsx';
import { InPicture } from './InPicture.tsx';

/**
 * What a member's viewer shows under a picture in every grid (the gallery, search, an album, a
 * person): who is in it, then the page's own tools (`children`), then adding it to an album.
 */
export function MemberTools({ picture, children }: { picture: Picture; children?: ReactNode }) {
  return (
    <div className="viewer-member-tools">
      <InPicture pictureId={picture.id} thumb={mediaUrl(picture.target, 'thumb')} />
      {children}
      <AddToAlbum picture={picture} />
    </div>
  );
}
