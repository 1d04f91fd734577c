import { defineArea } from '../area.ts';

/** The daily tower's calls: made from the game page, so they follow its rule (every member on 8443). */
export const towerDailyRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'towerDaily.today': { access: 3, alsoOnPort: 8443 },
    'towerDaily.submit': { access: 3, alsoOnPort: 8443 },
    'towerDaily.day': { access: 3, alsoOnPort: 8443 },
    'towerDaily.leaderboard': { access: 3, alsoOnPort: 8443 },
  },
});
