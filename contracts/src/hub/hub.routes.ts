import { defineArea } from '../area.ts';
import { hubPages } from './hub.pages.ts';

export const hubRoutes = /* @__PURE__ */ defineArea({
  pages: hubPages,
});
