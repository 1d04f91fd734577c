import { defineArea } from '../area.ts';
import { albumsPages, sharesPages } from './albums.pages.ts';

/**
 * Albums: named sets of gallery pictures, private to their owner or shared with the family (every
 * member from level 1). Who may change one is decided in the server's service (its owner; a family
 * album also an admin), never by the level alone.
 */
export const albumsRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'albums.list': 1,
    'albums.get': 1,
    // The ids of the albums this member sees that hold one picture (the viewer's "Add to album").
    'albums.holding': 1,
    'albums.create': 1,
    'albums.addPictures': 1,
    'albums.removePictures': 1,
    'albums.rename': 1,
    'albums.delete': 1,
  },
  pages: albumsPages,
});

/**
 * Links: a view link opens one album to anyone holding it, an upload link lets anyone holding it send
 * pictures to the approval queue. The guests' rows are public: each call checks the link's token
 * itself (only its SHA-256 is stored) and answers a token that is unknown, revoked or expired alike.
 */
export const sharesRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'shares.create': 1,
    'shares.createUpload': 2,
    'shares.list': 1,
    'shares.revoke': 1,
    'shares.active': 3,
    'shares.open': 'public',
    'shares.unlock': 'public',
    'shares.uploadInfo': 'public',
    'shares.social': 'public',
    'shares.search': 'public',
  },
  pages: sharesPages,
  http: {
    'GET /api/shared/:token/:file': { access: 'public' },
    'POST /api/shared/:token/upload': { access: 'public', multipart: true },
    // The same as resumable uploads (tus 1.0.0): each request checks the link's token itself.
    'POST /api/shared/:token/uploads/': { access: 'public' },
    'HEAD /api/shared/:token/uploads/:id': { access: 'public' },
    'PATCH /api/shared/:token/uploads/:id': { access: 'public' },
    'DELETE /api/shared/:token/uploads/:id': { access: 'public' },
  },
});
