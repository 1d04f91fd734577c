import { defineArea } from '../area.ts';

export const picturesRoutes = defineArea({
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
  pages: {
    '/personal/pictures': { access: 1, label: 'Pictures', group: 'cool', pattern: '/personal/pictures/*' },
    // Friends (level 1) may upload too, for approval: they reach the form from the gallery's link;
    // the hub and navbar list it from level 2 as the spec says.
    '/personal/upload-pictures': { access: 1, listedFrom: 2, label: 'Add Pictures', group: 'cool' },
    // The approval queue: linked, with its count, from the hub's Admin section (not a navbar tab).
    '/admin/pictures': { access: 3, label: 'Approve Pictures' },
    // Reached from the gallery's "Map" link.
    '/personal/pictures/map': { access: 1, label: 'Pictures map' },
  },
  http: {
    'GET /private/pictures/:file': { access: 1 },
    'POST /api/pictures/upload': { access: 1, multipart: true },
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
