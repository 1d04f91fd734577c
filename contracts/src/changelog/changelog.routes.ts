import { defineArea } from '../area.ts';
import { changelogPages } from './changelog.pages.ts';

export const changelogRoutes = /* @__PURE__ */ defineArea({
  pages: changelogPages,
});
