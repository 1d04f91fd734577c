import { defineArea } from '../area.ts';
import { aboutPages } from './about.pages.ts';

export const aboutRoutes = /* @__PURE__ */ defineArea({
  pages: aboutPages,
});
