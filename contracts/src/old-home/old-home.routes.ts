import { defineArea } from '../area.ts';
import { oldHomePages } from './old-home.pages.ts';

export const oldHomeRoutes = /* @__PURE__ */ defineArea({
  pages: oldHomePages,
});
