import { defineArea } from '../area.ts';
import { picturesPages } from './pictures.pages.ts';

export const picturesRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'pictures.page': 1,
    'pictures.pageInfo': 1,
    'pictures.get': 1,
    'pictures.pending': 3,
    'pictures.pendingCount': 3,
    'pictures.approve': 3,
    'pictures.reject': 3,
    'pictures.update': 3,
    'pictures.delete': 3,
    'pictures.mediaCheck': 3,
    'pictures.mediaStore': 3,
    // Hearts and comments (pictures.social.ts): members from Friend up; pending accounts never.
    'pictures.social': 1,
    'pictures.heart': 1,
    'pictures.comment': 1,
    'pictures.editComment': 1,
    'pictures.deleteComment': 1,
    // The hub's card: pictures taken on today's month and day in earlier years.
    'pictures.onThisDay': 1,
    // Search (pictures.search.ts): what this member sees, by caption, comment, date and place.
    'pictures.search': 1,
    'pictures.suggest': 1,
    // The map page: the located pictures, and the cards of a cluster's.
    'pictures.map': 1,
    'pictures.byIds': 1,
  },
  pages: picturesPages,
  http: {
    'GET /private/pictures/:file': { access: 1 },
    'POST /api/pictures/upload': { access: 1, multipart: true },
    // Resumable uploads (tus 1.0.0, pictures.resumable.ts): the same level as the one-request upload.
    'POST /uploads/': { access: 1 },
    'HEAD /uploads/:id': { access: 1 },
    'PATCH /uploads/:id': { access: 1 },
    'DELETE /uploads/:id': { access: 1 },
  },
  api: {
    '/api/pictures/get_all': {
      procedure: 'pictures.pageInfo',
      input: { type: 'type', index: { field: 'index', as: 'int' } },
      output: { pageLength: 'pageLength', pageCount: 'pageCount' },
    },
    '/api/pictures/get': {
      procedure: 'pictures.get',
      input: { type: 'type', index: { field: 'index', as: 'int' }, pic: { field: 'pic', as: 'int' } },
      output: { desc: 'desc', fileType: 'fileType', target: 'target', uploaded: 'uploaded' },
    },
  },
});
