import type { Generated, Selectable } from 'kysely';

/** An album: a name and a set of gallery pictures; private ones are seen by their owner alone. */
export interface AlbumsTable {
  id: Generated<number>;
  name: string;
  private: boolean;
  /** Null once the owner's account is deleted: a family album stays, a private one is then nobody's. */
  owner_id: number | null;
  created_at: Generated<Date>;
}

/** A picture in an album (a picture may be in many); deleting either side removes the row. */
export interface AlbumPicturesTable {
  album_id: number;
  picture_id: number;
  added_at: Generated<Date>;
}

/**
 * A guest link. Only the SHA-256 of its token is kept. A view link opens one album; an upload link
 * sends pictures to the approval queue (and, when it names an album, into that album once approved).
 */
export interface AlbumSharesTable {
  id: Generated<number>;
  token_hash: string;
  kind: 'view' | 'upload';
  album_id: number | null;
  created_by: number | null;
  created_at: Generated<Date>;
  expires_at: Date | null;
  /** argon2id of the view link's password; null for none. */
  password_hash: string | null;
  revoked_at: Date | null;
  /** A view link's guests get originals with their GPS position; false (the default) removes it from what they download. */
  include_location: Generated<boolean>;
  /** Opens of a view link; files stored through an upload link. */
  uses: Generated<number>;
  upload_bytes: Generated<number>;
}

/** Who sent a picture through an upload link: the approval page shows "from <name> (guest link)". */
export interface PictureGuestsTable {
  picture_id: number;
  share_id: number | null;
  guest_name: string;
}

export interface AlbumsTables {
  albums: AlbumsTable;
  album_pictures: AlbumPicturesTable;
  album_shares: AlbumSharesTable;
  picture_guests: PictureGuestsTable;
}

export type AlbumRecord = Selectable<AlbumsTable>;
export type ShareRecord = Selectable<AlbumSharesTable>;
