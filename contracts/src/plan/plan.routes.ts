import { defineArea } from '../area.ts';
import { planPages, choresPages } from './plan.pages.ts';

/** The meal plan (level 2, like House's writes): the week, its slots, templates, and shopping the week into House To Get. */
export const planRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'plan.week': 2,
    'plan.set': 2,
    'plan.clear': 2,
    'plan.copyLastWeek': 2,
    'plan.templates': 2,
    'plan.saveTemplate': 2,
    'plan.applyTemplate': 2,
    'plan.shop': 2,
    'plan.members': 2,
    // The recipes' titles to choose from (the recipes page itself is the owner's, site.md §6).
    'plan.recipes': 2,
    'plan.saveMeals': 3,
  },
  pages: planPages,
});

/** Chores that rotate between members, with points. */
export const choresRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'chores.list': 2,
    'chores.create': 2,
    'chores.update': 2,
    'chores.delete': 2,
    'chores.done': 2,
    'chores.undo': 2,
    'chores.points': 2,
  },
  pages: choresPages,
});

/** Each member's calendar feed: managed from the Account page, read by calendar apps by its token alone. */
export const calendarRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'calendar.feed': 2,
    'calendar.reset': 2,
    'calendar.settings': 2,
  },
  http: {
    // Anonymous: a calendar app has no session. The token in the path is the whole authority (404 otherwise).
    'GET /calendar/:file': { access: 'public' },
  },
});
